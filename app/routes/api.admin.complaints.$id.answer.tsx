import { answerComplaintAction } from "~/web/complaint-actions.server";
import { adminApiAction } from "~/web/admin-http.server";

/** Answers a complaint waiting for one {answer}: the player reads it on /complaints and by email. JSON; the back office's form posts to /admin/complaints/:id/answer. */
export const action = adminApiAction(answerComplaintAction);

import { answerComplaintAction } from "~/web/complaint-actions.server";
import { adminPageAction } from "~/web/admin-http.server";

/** The back office's form: Answers a complaint waiting for one {answer}: the player reads it on /complaints and by email. Back to the page with a toast; API clients use /api/admin/complaints/:id/answer. */
export const action = adminPageAction(answerComplaintAction);

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

import { closeComplaintAction } from "~/web/complaint-actions.server";
import { adminApiAction } from "~/web/admin-http.server";

/** Closes an answered complaint. JSON; the back office's form posts to /admin/complaints/:id/close. */
export const action = adminApiAction(closeComplaintAction);

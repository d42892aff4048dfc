import { closeComplaintAction } from "~/web/complaint-actions.server";
import { adminPageAction } from "~/web/admin-http.server";

/** The back office's form: Closes an answered complaint. Back to the page with a toast; API clients use /api/admin/complaints/:id/close. */
export const action = adminPageAction(closeComplaintAction);

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

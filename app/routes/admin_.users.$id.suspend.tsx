import { suspendUserAction } from "~/web/admin-actions.server";
import { adminPageAction } from "~/web/admin-http.server";

/** The back office's form: suspends a player {suspended: true} or lifts it {suspended: false}. Back to the page with a toast; API clients use /api/admin/users/:id/suspend. */
export const action = adminPageAction(suspendUserAction);

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

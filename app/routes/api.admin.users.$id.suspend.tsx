import { suspendUserAction } from "~/web/admin-actions.server";
import { adminApiAction } from "~/web/admin-http.server";

/** Suspends a player {suspended: true} or lifts it {suspended: false}. JSON; the back office's form posts to /admin/users/:id/suspend. */
export const action = adminApiAction(suspendUserAction);

import { verifyIdentityAction } from "~/web/admin-actions.server";
import { adminApiAction } from "~/web/admin-http.server";

/** Records that a player's identity was verified. JSON; the back office's form posts to /admin/users/:id/verify. */
export const action = adminApiAction(verifyIdentityAction);

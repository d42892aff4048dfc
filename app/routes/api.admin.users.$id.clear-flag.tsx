import { clearFlagAction } from "~/web/admin-actions.server";
import { adminApiAction } from "~/web/admin-http.server";

/** Clears the player's flag {flaggedAt: when the flag seen was set, note}. JSON; the back office's form posts to /admin/users/:id/clear-flag. */
export const action = adminApiAction(clearFlagAction);

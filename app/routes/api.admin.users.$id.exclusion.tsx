import { extendExclusionAction } from "~/web/admin-actions.server";
import { adminApiAction } from "~/web/admin-http.server";

/** Lengthens a player's running break or exclusion {choice} (admins can do nothing else to it). JSON; the back office's form posts to /admin/users/:id/exclusion. */
export const action = adminApiAction(extendExclusionAction);

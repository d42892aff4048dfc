import { extendExclusionAction } from "~/web/admin-actions.server";
import { adminPageAction } from "~/web/admin-http.server";

/** The back office's form: lengthens a player's running break or exclusion {choice} (admins can do nothing else to it). Back to the page with a toast; API clients use /api/admin/users/:id/exclusion. */
export const action = adminPageAction(extendExclusionAction);

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

import { clearFlagAction } from "~/web/admin-actions.server";
import { adminPageAction } from "~/web/admin-http.server";

/** The back office's form: clears the player's flag {flaggedAt, note}. Back to the page with a toast; API clients use /api/admin/users/:id/clear-flag. */
export const action = adminPageAction(clearFlagAction);

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

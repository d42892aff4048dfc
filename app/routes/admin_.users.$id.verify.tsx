import { verifyIdentityAction } from "~/web/admin-actions.server";
import { adminPageAction } from "~/web/admin-http.server";

/** The back office's form: records that a player's identity was verified. Back to the page with a toast; API clients use /api/admin/users/:id/verify. */
export const action = adminPageAction(verifyIdentityAction);

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

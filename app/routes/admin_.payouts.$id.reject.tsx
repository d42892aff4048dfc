import { rejectPayoutAction } from "~/web/admin-actions.server";
import { adminPageAction } from "~/web/admin-http.server";

/** The back office's form: rejects a pending payout {reason}; its hold goes back to the player's cash. Back to the page with a toast; API clients use /api/admin/payouts/:id/reject. */
export const action = adminPageAction(rejectPayoutAction);

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

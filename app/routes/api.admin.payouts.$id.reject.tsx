import { rejectPayoutAction } from "~/web/admin-actions.server";
import { adminApiAction } from "~/web/admin-http.server";

/** Rejects a pending payout {reason}; its hold goes back to the player's cash. JSON; the back office's form posts to /admin/payouts/:id/reject. */
export const action = adminApiAction(rejectPayoutAction);

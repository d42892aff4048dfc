import { approvePayoutAction } from "~/web/admin-actions.server";
import { adminApiAction } from "~/web/admin-http.server";

/** Approves a pending payout (a second admin's approval above the threshold). JSON; the back office's form posts to /admin/payouts/:id/approve. */
export const action = adminApiAction(approvePayoutAction);

import { approvePayoutAction } from "~/services/admin-actions.server";
import { adminApiAction } from "~/services/admin-http.server";

/** Approves a pending payout (a second admin's approval above the threshold). JSON; the back office's form posts to /admin/payouts/:id/approve (ADR 040). */
export const action = adminApiAction(approvePayoutAction);

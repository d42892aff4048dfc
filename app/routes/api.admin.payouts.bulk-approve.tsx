import { bulkApproveAction } from "~/web/admin-actions.server";
import { adminApiAction } from "~/web/admin-http.server";

/** Approves every pending payout up to {maxAmount}: the spec's $50 or $100. JSON; the back office's form posts to /admin/payouts/bulk-approve. */
export const action = adminApiAction(bulkApproveAction);

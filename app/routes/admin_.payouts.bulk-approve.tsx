import { bulkApproveAction } from "~/services/admin-actions.server";
import { adminPageAction } from "~/services/admin-http.server";

/** The back office's form: approves every pending payout up to {maxAmount}: the spec's $50 or $100. Back to the page with a toast; API clients use /api/admin/payouts/bulk-approve (ADR 040). */
export const action = adminPageAction(bulkApproveAction);

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

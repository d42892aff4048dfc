import { approvePayoutAction } from "~/web/admin-actions.server";
import { adminPageAction } from "~/web/admin-http.server";

/** The back office's form: approves a pending payout (a second admin's approval above the threshold). Back to the page with a toast; API clients use /api/admin/payouts/:id/approve. */
export const action = adminPageAction(approvePayoutAction);

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

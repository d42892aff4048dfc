import { settleTransferAction } from "~/services/admin-actions.server";
import { adminPageAction } from "~/services/admin-http.server";

/** The back office's form: records a hand-paid transfer as sent {reference} or failed {failure}. Back to the page with a toast; API clients use /api/admin/payouts/:id/transfer (ADR 040). */
export const action = adminPageAction(settleTransferAction);

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

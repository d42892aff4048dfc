import { settleTransferAction } from "~/services/admin-actions.server";
import { adminApiAction } from "~/services/admin-http.server";

/** Records a hand-paid transfer as sent {reference} or failed {failure}. JSON; the back office's form posts to /admin/payouts/:id/transfer (ADR 040). */
export const action = adminApiAction(settleTransferAction);

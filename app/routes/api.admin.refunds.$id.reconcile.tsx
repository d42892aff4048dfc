import { reconcileRefundAction } from "~/web/admin-actions.server";
import { adminApiAction } from "~/web/admin-http.server";

/** Settles a refund held for review (`:id`, its payout leg) as reached the card {reference} or not {failure}. JSON; the back office's form posts to /admin/refunds/:id/reconcile. */
export const action = adminApiAction(reconcileRefundAction);

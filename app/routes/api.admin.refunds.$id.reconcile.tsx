import { reconcileRefundAction } from "~/web/admin-actions.server";
import { adminApiAction } from "~/web/admin-http.server";

/** Settles a refund held for review (`:id`, its payout leg) as reached the card {reference} or not {failure} (ADR 050). JSON; the back office's form posts to /admin/refunds/:id/reconcile (ADR 040). */
export const action = adminApiAction(reconcileRefundAction);

import { reconcileRefundAction } from "~/web/admin-actions.server";
import { adminPageAction } from "~/web/admin-http.server";

/** The back office's form: settles a refund held for review as reached the card {reference} or not {failure}. Back to the page with a toast; API clients use /api/admin/refunds/:id/reconcile. */
export const action = adminPageAction(reconcileRefundAction);

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { settleTransferAction } from "~/web/admin-actions.server";
import { adminApiAction } from "~/web/admin-http.server";
import { requireAdmin } from "~/web/auth.server";
import { transferStep } from "~/services/money/transfers.server";
import { apiResponse, uuidParam } from "~/web/http.server";

/** The transfer step: the full destination, for an admin who may record this transfer; each view is audited. The back office's page is /admin/payouts/:id/transfer. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const session = await requireAdmin(request);
  return apiResponse(async () => Response.json(await transferStep(session.user.id, uuidParam(params.id))));
}

/** Records a hand-paid transfer as sent {reference} or failed {failure}. JSON; the back office's form posts to /admin/payouts/:id/transfer. */
export const action = adminApiAction(settleTransferAction);

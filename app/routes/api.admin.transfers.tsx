import type { LoaderFunctionArgs } from "@remix-run/node";
import { listTransfersAwaitingReference } from "~/services/back-office/admin.server";
import { requireAdmin } from "~/web/auth.server";

/** Approved payouts' transfers waiting for the reference an admin records at /api/admin/payouts/:withdrawalId/transfer, oldest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return Response.json(await listTransfersAwaitingReference());
}

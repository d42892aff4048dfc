import type { LoaderFunctionArgs } from "@remix-run/node";
import { listRefundsInReview } from "~/services/back-office/admin.server";
import { requireAdmin } from "~/web/auth.server";

/** Refunds held for review, oldest first, each with the leg id that /api/admin/refunds/:id/reconcile takes. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return Response.json(await listRefundsInReview());
}

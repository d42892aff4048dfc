import type { LoaderFunctionArgs } from "@remix-run/node";
import { auditView, readAuditFilter } from "~/services/back-office/audit-view.server";
import { requireAdmin } from "~/web/auth.server";
import { jsonError, queryParams } from "~/web/http.server";

/** The audit log, a page at a time, with the back office's filters (actor, action, target, from, to, before, after). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const view = await auditView(readAuditFilter(queryParams(request)));
  if (view.problem) return jsonError(400, view.problem);
  return Response.json(view);
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { auditView } from "~/services/admin.server";
import { requireAdmin } from "~/services/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return Response.json(await auditView());
}

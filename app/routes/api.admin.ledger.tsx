import type { LoaderFunctionArgs } from "@remix-run/node";
import { reconciliation } from "~/services/back-office/admin.server";
import { requireAdmin } from "~/web/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return Response.json(await reconciliation());
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { listRafflesForAdmin } from "~/services/back-office/admin.server";
import { requireAdmin } from "~/web/auth.server";
import { queryParams } from "~/web/http.server";

/** Active raffles and the last day's; rounds cancelled without entries only with ?empty=1. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return Response.json(await listRafflesForAdmin({ showEmpty: queryParams(request).get("empty") === "1" }));
}

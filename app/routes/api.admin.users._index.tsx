import type { LoaderFunctionArgs } from "@remix-run/node";
import { listUsers } from "~/services/admin.server";
import { requireAdmin } from "~/services/auth.server";
import { queryParams } from "~/infra/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const params = queryParams(request);
  const page = Math.max(0, Math.min(10_000, Number.parseInt(params.get("page") ?? "0", 10) || 0));
  return Response.json(await listUsers((params.get("q") ?? "").slice(0, 100), page));
}

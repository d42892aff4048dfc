import type { LoaderFunctionArgs } from "@remix-run/node";
import { listUsers, usersSearch } from "~/services/admin.server";
import { requireAdmin } from "~/services/auth.server";
import { queryParams } from "~/infra/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const { q, page } = usersSearch(queryParams(request));
  return Response.json(await listUsers(q, page));
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { listUsers, usersSearch } from "~/services/back-office/admin.server";
import { requireAdmin } from "~/web/auth.server";
import { queryParams } from "~/web/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const { q, page } = usersSearch(queryParams(request));
  return Response.json(await listUsers(q, page));
}

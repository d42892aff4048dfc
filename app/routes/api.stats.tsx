import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { getStats } from "~/services/feeds.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return Response.json(await getStats());
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { getLeaderboard } from "~/services/feeds.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return Response.json(await getLeaderboard());
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { getRecentWinners } from "~/services/raffles/raffle-views.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return Response.json(await getRecentWinners());
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { listRaffles } from "~/services/raffles/raffle-views.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return Response.json(await listRaffles("quick", { userId: user.id, vip: user }));
}

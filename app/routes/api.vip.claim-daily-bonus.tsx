import type { ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { claimAsPlayer } from "~/services/raffles/game-actions.server";
import { apiResponse } from "~/web/http.server";
import { idempotent } from "~/web/idempotency.server";

/** POST: the bonus claimed, as JSON; the VIP page's button posts to /vip/claim-daily-bonus. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return idempotent(request, user.id, () => apiResponse(async () => Response.json(await claimAsPlayer(user))));
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

import type { ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { claimAsPlayer } from "~/services/game-actions.server";
import { apiResponse } from "~/infra/http.server";
import { idempotent } from "~/infra/idempotency.server";

/** POST: the bonus claimed, as JSON; the VIP page's button posts to /vip/claim-daily-bonus (ADR 040). */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return idempotent(request, user.id, () => apiResponse(async () => Response.json((await claimAsPlayer(user)).json)));
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

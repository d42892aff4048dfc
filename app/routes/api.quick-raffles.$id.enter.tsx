import type { ActionFunctionArgs } from "@remix-run/node";
import { requireSessionToken, requireUser } from "~/web/auth.server";
import { enterAsPlayer } from "~/services/raffles/game-actions.server";
import { apiResponse, uuidParam } from "~/web/http.server";
import { idempotent } from "~/web/idempotency.server";

/** POST: the entry as JSON; the cards on the pages post to the page route of the same path without /api. */
export async function action({ request, params }: ActionFunctionArgs) {
  // The session is checked by the entry itself, in its transaction (enterAsPlayer).
  const sessionHash = await requireSessionToken(request);
  const playerId = async () => (await requireUser(request)).id;
  return idempotent(request, playerId, () => apiResponse(async () => Response.json(await enterAsPlayer(sessionHash, uuidParam(params.id), "quick"))));
}

/** An entry leaves the session and its player alone, and moves its pot itself (`forgetCachedSession`). */
export const handle = { keepsSession: true };

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

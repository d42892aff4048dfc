import type { ActionFunctionArgs } from "@remix-run/node";
import { requireSessionToken, requireUser } from "~/services/auth.server";
import { enterAsPlayer } from "~/services/game-actions.server";
import { uuidParam } from "~/services/http.server";
import { respond } from "~/services/respond.server";
import { idempotent } from "~/services/idempotency.server";

export async function action({ request, params }: ActionFunctionArgs) {
  // The session is checked by the entry itself, in its transaction (enterAsPlayer).
  const sessionHash = await requireSessionToken(request);
  const playerId = async () => (await requireUser(request)).id;
  return idempotent(request, playerId, () =>
    respond(request, () => enterAsPlayer(sessionHash, uuidParam(params.id), "regular"), { failureTitle: "Entry Failed" }),
  );
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

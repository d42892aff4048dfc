import type { ActionFunctionArgs } from "@remix-run/node";
import { requireSessionToken, requireUser } from "~/services/auth.server";
import { enterAsPlayer } from "~/services/game-actions.server";
import { uuidParam } from "~/infra/http.server";
import { respond } from "~/infra/respond.server";
import { idempotent } from "~/infra/idempotency.server";

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

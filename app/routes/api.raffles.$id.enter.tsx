import type { ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { enterAsPlayer } from "~/services/game-actions.server";
import { uuidParam } from "~/services/http.server";
import { respond } from "~/services/respond.server";
import { idempotent } from "~/services/idempotency.server";

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return idempotent(request, user.id, () =>
    respond(request, () => enterAsPlayer(user, uuidParam(params.id), "regular"), { failureTitle: "Entry Failed" }),
  );
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

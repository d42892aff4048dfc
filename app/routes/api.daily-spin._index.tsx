import type { ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { spinAsPlayer } from "~/services/game-actions.server";
import { apiResponse } from "~/infra/http.server";
import { idempotent } from "~/infra/idempotency.server";

/** POST: the spin's reward as JSON; the home page's wheel posts to /daily-spin (ADR 040). */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return idempotent(request, user.id, () => apiResponse(async () => Response.json((await spinAsPlayer(user)).json)));
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

import type { ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { spinAsPlayer } from "~/services/raffles/game-actions.server";
import { apiResponse } from "~/web/http.server";
import { idempotent } from "~/web/idempotency.server";

/** POST: the spin's reward as JSON; the home page's wheel posts to /daily-spin. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return idempotent(request, user.id, () => apiResponse(async () => Response.json(await spinAsPlayer(user))));
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

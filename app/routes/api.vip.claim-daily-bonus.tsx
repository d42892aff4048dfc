import type { ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { claimAsPlayer } from "~/services/game-actions.server";
import { respond } from "~/infra/respond.server";
import { idempotent } from "~/infra/idempotency.server";

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return idempotent(request, user.id, () => respond(request, () => claimAsPlayer(user), { failureTitle: "Claim Failed", back: "/vip" }));
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

import type { ActionFunctionArgs } from "@remix-run/node";
import { adminAction } from "~/services/admin-http.server";
import { completeRaffle } from "~/services/admin.server";
import { uuidParam } from "~/infra/http.server";

export async function action({ request, params }: ActionFunctionArgs) {
  return adminAction(request, async (session) => {
    const outcome = await completeRaffle(session.user.id, uuidParam(params.id));
    return {
      json: { outcome: outcome.outcome, raffleId: outcome.raffleId },
      toast:
        outcome.outcome === "completed"
          ? { type: "success", title: "Raffle Completed!", description: "Raffle has been completed and winner selected" }
          : { type: "success", title: "Raffle Completed!", description: "Fewer than two players: the raffle was cancelled and every ticket refunded" },
    };
  });
}

import { completeRaffleAction } from "~/web/admin-actions.server";
import { adminApiAction } from "~/web/admin-http.server";

/** Completes an active raffle early: closed now and drawn with the next beacon round ({ outcome: "closed", beaconRound }); drawn at once in a demo without a beacon. JSON; the back office's form posts to /admin/raffles/:id/complete. */
export const action = adminApiAction(completeRaffleAction);

import { completeRaffleAction } from "~/services/admin-actions.server";
import { adminApiAction } from "~/services/admin-http.server";

/** Completes an active raffle early: drawn now, or cancelled and refunded below two players. JSON; the back office's form posts to /admin/raffles/:id/complete (ADR 040). */
export const action = adminApiAction(completeRaffleAction);

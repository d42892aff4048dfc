import { completeRaffleAction } from "~/web/admin-actions.server";
import { adminApiAction } from "~/web/admin-http.server";

/** Completes an active raffle early: drawn now, or cancelled and refunded below two players. JSON; the back office's form posts to /admin/raffles/:id/complete. */
export const action = adminApiAction(completeRaffleAction);

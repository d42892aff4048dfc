import { completeRaffleAction } from "~/web/admin-actions.server";
import { adminPageAction } from "~/web/admin-http.server";

/** The back office's form: completes an active raffle early: closed now and drawn with the next beacon round (drawn at once in a demo without a beacon). Back to the page with a toast; API clients use /api/admin/raffles/:id/complete. */
export const action = adminPageAction(completeRaffleAction);

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

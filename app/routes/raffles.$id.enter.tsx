import type { ActionFunctionArgs } from "@remix-run/node";
import { cardEntry } from "~/web/card-entry.server";

/**
 * A raffle card's "Enter", with or without JavaScript (card-entry.server.ts). API clients
 * use /api/raffles/:id/enter, which answers JSON.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  return cardEntry(request, params.id, "regular", "/");
}

/**
 * An entry changes tickets, pots and coins, not the session or its player: after it only the
 * game is read again (server/remix.ts, `withAfterWrite`). Its play tracking is not announced
 * from any instance, and a session a minute stale is touched again by its next page.
 */
export const handle = { keepsSession: true };

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

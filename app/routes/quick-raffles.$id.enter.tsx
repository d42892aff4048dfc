import type { ActionFunctionArgs } from "@remix-run/node";
import { cardEntry } from "~/web/card-entry.server";

/**
 * A quick round card's "Enter", with or without JavaScript (card-entry.server.ts). API
 * clients use /api/quick-raffles/:id/enter, which answers JSON.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  return cardEntry(request, params.id, "quick", "/quick");
}

/** An entry leaves the session and its player alone, and moves its pot itself (`forgetCachedSession`). */
export const handle = { keepsSession: true };

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

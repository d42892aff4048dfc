import type { ActionFunctionArgs } from "@remix-run/node";
import { requireSessionToken } from "~/web/auth.server";
import { enterAsPlayer } from "~/services/raffles/game-actions.server";
import { uuidParam } from "~/web/http.server";
import { enteredToast } from "~/web/game-toasts";
import { pageAction } from "~/web/page-action.server";

/**
 * A quick round card's "Enter": back to the page with the spec's toast, with or
 * without JavaScript. API clients use /api/quick-raffles/:id/enter, which answers JSON.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  return pageAction(
    request,
    // The session is checked by the entry itself, in its transaction (enterAsPlayer).
    async () => enteredToast(await enterAsPlayer(await requireSessionToken(request), uuidParam(params.id), "quick"), "quick"),
    { failureTitle: "Entry Failed", back: "/quick" },
  );
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

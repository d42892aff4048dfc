import type { ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { spinAsPlayer } from "~/services/raffles/game-actions.server";
import { spunToast } from "~/web/game-toasts";
import { pageAction } from "~/web/page-action.server";

/** The wheel's spin on the home page; API clients use POST /api/daily-spin. */
export async function action({ request }: ActionFunctionArgs) {
  return pageAction(request, async () => spunToast(await spinAsPlayer(await requireUser(request))), { failureTitle: "Error" });
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

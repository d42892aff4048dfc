import type { ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { claimAsPlayer } from "~/services/raffles/game-actions.server";
import { claimedToast } from "~/web/game-toasts";
import { pageAction } from "~/web/page-action.server";

/** "Claim Daily Bonus" on the VIP page; API clients use POST /api/vip/claim-daily-bonus. */
export async function action({ request }: ActionFunctionArgs) {
  return pageAction(request, async () => claimedToast(await claimAsPlayer(await requireUser(request))), { failureTitle: "Claim Failed", back: "/vip" });
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

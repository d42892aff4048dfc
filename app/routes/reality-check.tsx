import type { ActionFunctionArgs } from "@remix-run/node";
import { requireSession } from "~/web/auth.server";
import { dismissRealityCheck } from "~/services/play-safety/reality-check.server";
import { pageAction } from "~/web/page-action.server";

/**
 * "Keep playing" on the reality check: dismisses the reminder until the next
 * interval and goes back to the page. API clients use POST /api/reality-check.
 */
export async function action({ request }: ActionFunctionArgs) {
  return pageAction(
    request,
    async () => {
      await dismissRealityCheck(await requireSession(request));
      return null;
    },
    { failureTitle: "Reality check" },
  );
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

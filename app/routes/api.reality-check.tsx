import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireSession } from "~/web/auth.server";
import { dismissRealityCheck, playState } from "~/services/play-safety/reality-check.server";

/** GET: this stretch of play (length, net result, next reminder). */
export async function loader({ request }: LoaderFunctionArgs) {
  return Response.json(await playState(await requireSession(request)));
}

/** POST: dismisses the reminder until the next interval; the page's form posts to /reality-check. */
export async function action({ request }: ActionFunctionArgs) {
  return Response.json(await dismissRealityCheck(await requireSession(request)));
}

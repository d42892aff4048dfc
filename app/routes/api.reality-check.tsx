import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireSession } from "~/services/auth.server";
import { dismissRealityCheck, playState } from "~/services/reality-check.server";
import { wantsJson } from "~/infra/respond.server";
import { safeRedirectPath } from "~/shared/safe-redirect";

/** GET: this stretch of play (length, net result, next reminder). */
export async function loader({ request }: LoaderFunctionArgs) {
  return Response.json(await playState(await requireSession(request)));
}

/** POST: "Keep playing" dismisses the reminder until the next interval. */
export async function action({ request }: ActionFunctionArgs) {
  const session = await requireSession(request);
  const form = await request.formData().catch(() => new FormData());
  const state = await dismissRealityCheck(session);
  return wantsJson(request) ? Response.json(state) : redirect(safeRedirectPath(form.get("returnTo")));
}

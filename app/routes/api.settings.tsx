import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { jsonError, readForm } from "~/web/http.server";
import { settingsSchema } from "~/shared/player-settings";
import { saveSettings, settingsOf } from "~/services/accounts/settings.server";

/** The player's settings. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return Response.json(settingsOf(user), { headers: { "Cache-Control": "no-store" } });
}

/** Saves every setting at once (an unticked box is off) and answers them as JSON; the pages post to /settings. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = settingsSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return jsonError(400, "Each setting is on or off");
  return Response.json(await saveSettings(user.id, parsed.data));
}

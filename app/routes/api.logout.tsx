import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { endAllSessions, endSession, getSession } from "~/services/auth.server";

/**
 * Signs out and revokes the session on the server. GET is allowed because the spec's
 * logout is a browser navigation; it only ever ends the caller's own session.
 */
async function logout(request: Request) {
  return redirect("/", { headers: { "Set-Cookie": await endSession(request) } });
}

export const loader = ({ request }: LoaderFunctionArgs) => logout(request);

/** POST with everywhere=true signs out every browser of this player ("sign out everywhere"). */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData().catch(() => new FormData());
  if (form.get("everywhere") === "true") {
    const session = await getSession(request);
    if (session) await endAllSessions(session.user.id);
  }
  return logout(request);
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { endSession } from "~/services/auth.server";

/**
 * Signs out and revokes the session on the server. GET is allowed because the spec's
 * logout is a browser navigation; it only ever ends the caller's own session.
 */
async function logout(request: Request) {
  return redirect("/", { headers: { "Set-Cookie": await endSession(request) } });
}

export const loader = ({ request }: LoaderFunctionArgs) => logout(request);
export const action = ({ request }: ActionFunctionArgs) => logout(request);

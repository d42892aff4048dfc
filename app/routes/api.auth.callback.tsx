import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { AccountError, userForOidcSignIn } from "~/services/accounts/sign-up.server";
import { startSession } from "~/web/auth.server";
import { authenticateWithOidc, oidcEnabled } from "~/services/accounts/oidc.server";
import { recallReturnTo } from "~/web/return-to.server";
import { redirectWithToast } from "~/web/toast.server";
import { needsSecondStep } from "~/services/accounts/two-step-sign-in.server";
import { pendingSignInCookie } from "~/web/pending-sign-in.server";

/** The identity provider sends the player back here with a code; we finish the sign-in. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!oidcEnabled()) throw new Response("Not Found", { status: 404 });
  const { returnTo, clear } = await recallReturnTo(request);
  let userId: string;
  try {
    userId = await userForOidcSignIn(await authenticateWithOidc(request));
  } catch (error) {
    if (error instanceof Response) throw error;
    const message = error instanceof AccountError ? error.message : "Sign-in with your identity provider failed. Please try again.";
    return redirectWithToast("/", { type: "error", title: "Sign-in failed", description: message });
  }
  // A player with a second factor gives its code after the provider too, as after a password.
  if (await needsSecondStep(userId)) {
    const headers = new Headers({ "Set-Cookie": await pendingSignInCookie(userId, returnTo) });
    headers.append("Set-Cookie", clear);
    return redirect("/login/two-factor", { headers });
  }
  const headers = new Headers({ "Set-Cookie": await startSession(request, userId, { ip: context.clientIp }) });
  headers.append("Set-Cookie", clear);
  return redirect(returnTo, { headers });
}

import type { ActionFunctionArgs } from "@remix-run/node";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { z } from "zod";
import { startSession } from "~/web/auth.server";
import { apiResponse, readJson } from "~/web/http.server";
import { knownDevice, rememberDevice } from "~/web/known-device.server";
import { authenticationResponse } from "~/shared/passkey-input";
import { signInOptions, verifyPasskeySignIn } from "~/services/accounts/passkeys.server";
import { safeRedirectPath } from "~/shared/safe-redirect";

const schema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("options") }),
  z.object({ intent: z.literal("verify"), challengeId: z.uuid(), response: authenticationResponse, returnTo: z.string().max(2000).optional() }),
]);

/**
 * Signing in with a passkey, called by the sign-in page's script: "options"
 * answers a challenge, "verify" checks the authenticator's answer and starts a session
 * marked as signed in with a verified passkey.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return apiResponse(async () => {
    const input = await readJson(request, schema);
    if (input.intent === "options") return Response.json(await signInOptions(request, context.clientIp));
    const userId = await verifyPasskeySignIn(request, { challengeId: input.challengeId, response: input.response as AuthenticationResponseJSON });
    const headers = new Headers();
    headers.append("Set-Cookie", await startSession(request, userId, { ip: context.clientIp, passkeyVerified: true }));
    headers.append("Set-Cookie", await rememberDevice(userId, await knownDevice(request)));
    return Response.json({ redirectTo: safeRedirectPath(input.returnTo) }, { headers });
  });
}

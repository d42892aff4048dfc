import type { ActionFunctionArgs } from "@remix-run/node";
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { z } from "zod";
import { requireUser } from "~/services/auth.server";
import { apiResponse, readJson } from "~/services/http.server";
import { registrationResponse } from "~/services/passkey-input";
import { PASSKEY_NAME_MAX, registerPasskey, registrationOptions } from "~/services/passkeys.server";

const schema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("options") }),
  z.object({ intent: z.literal("register"), challengeId: z.uuid(), name: z.string().trim().max(PASSKEY_NAME_MAX), response: registrationResponse }),
]);

/** Adding a passkey to the signed-in account (ADR 037), called by the passkeys page's script. */
export async function action({ request }: ActionFunctionArgs) {
  return apiResponse(async () => {
    const user = await requireUser(request);
    const input = await readJson(request, schema);
    if (input.intent === "options") return Response.json(await registrationOptions(request, user));
    const passkey = await registerPasskey(request, user.id, { challengeId: input.challengeId, name: input.name, response: input.response as RegistrationResponseJSON });
    return Response.json({ passkey: { id: passkey.id, name: passkey.name } });
  });
}

import type { ActionFunctionArgs } from "@remix-run/node";
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { z } from "zod";
import { adminGateOpen } from "~/services/accounts/sessions.server";
import { requireSession } from "~/web/auth.server";
import { DomainError } from "~/shared/domain-error";
import { apiResponse, readJson } from "~/web/http.server";
import { registrationResponse } from "~/shared/passkey-input";
import { PASSKEY_NAME_MAX, registerPasskey, registrationOptions } from "~/services/accounts/passkeys.server";

const schema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("options") }),
  z.object({ intent: z.literal("register"), challengeId: z.uuid(), name: z.string().trim().max(PASSKEY_NAME_MAX), response: registrationResponse }),
]);

/** Adding a passkey to the signed-in account, called by the passkeys page's script. */
export async function action({ request }: ActionFunctionArgs) {
  return apiResponse(async () => {
    const session = await requireSession(request);
    const user = session.user;
    // An admin's passkey opens the admin gate: only an admin past the gate adds one.
    if (user.isAdmin && !adminGateOpen(session)) {
      throw new DomainError("second_factor_required", "Open the back office with your authentication code first, then add your passkey.");
    }
    const input = await readJson(request, schema);
    if (input.intent === "options") return Response.json(await registrationOptions(request, user));
    const passkey = await registerPasskey(request, user.id, {
      challengeId: input.challengeId,
      name: input.name,
      response: input.response as RegistrationResponseJSON,
    });
    return Response.json({ passkey: { id: passkey.id, name: passkey.name } });
  });
}

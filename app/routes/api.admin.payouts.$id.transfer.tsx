import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { PAYOUT_UPDATED, adminAction } from "~/services/admin-http.server";
import { settleTransfer } from "~/services/payouts.server";
import { readJson, uuidParam } from "~/infra/http.server";

/**
 * POST {reference} records that the payout's transfer was sent by hand (its bank or wallet
 * reference); POST {failure} records that it failed, with the reason the player is told.
 */
const schema = z.union([
  z.object({ reference: z.string().trim().min(3).max(100).regex(/^[\w .:#/-]+$/, "letters, digits and . : # / - only") }).strict(),
  z.object({ failure: z.string().trim().min(3).max(200) }).strict(),
]);

export async function action({ request, params }: ActionFunctionArgs) {
  return adminAction(request, async (session) => {
    const outcome = await readJson(request, schema);
    return { json: await settleTransfer(session.user.id, uuidParam(params.id), outcome), toast: PAYOUT_UPDATED };
  });
}

import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { PAYOUT_UPDATED, adminAction } from "~/services/admin-http.server";
import { bulkApprove } from "~/services/admin.server";
import { readJson } from "~/infra/http.server";

/** {maxAmount}: the spec's thresholds, $50 or $100. */
const schema = z.object({ maxAmount: z.coerce.number().refine((v) => v === 50 || v === 100, "maxAmount must be 50 or 100") });

export async function action({ request }: ActionFunctionArgs) {
  return adminAction(request, async (session) => {
    const { maxAmount } = await readJson(request, schema);
    const approved = await bulkApprove(session.user.id, maxAmount * 100);
    return { json: { message: `Approved ${approved} payouts up to $${maxAmount}`, approved }, toast: { ...PAYOUT_UPDATED, description: `Approved ${approved} payouts up to $${maxAmount}` } };
  });
}

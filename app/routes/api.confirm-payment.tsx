import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/web/auth.server";
import { apiResponse, jsonError, readJson } from "~/web/http.server";
import { confirmPayment } from "~/services/money/payments/settle.server";
import { idempotent } from "~/web/idempotency.server";

const schema = z.object({ paymentIntentId: z.string().min(1).max(200) });

/** POST {paymentIntentId}: the server asks the provider, then credits once. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return idempotent(request, user.id, () =>
    apiResponse(async () => {
      const { paymentIntentId } = await readJson(request, schema);
      const { settlement, coinBalance } = await confirmPayment(user.id, paymentIntentId);
      if (settlement.status === "failed") return jsonError(402, settlement.message);
      if (settlement.status === "pending") return Response.json({ status: "pending" }, { status: 202 });
      return Response.json({
        status: "succeeded",
        ...(settlement.purpose === "coins" ? { coins: Number(settlement.coins) } : { tier: settlement.tier, vipExpiry: settlement.vipExpiry?.toISOString() }),
        coinBalance: Number(coinBalance),
      });
    }),
  );
}

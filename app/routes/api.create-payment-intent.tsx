import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/web/auth.server";
import { DomainError } from "~/shared/domain-error";
import { apiResponse, readJson } from "~/web/http.server";
import { coinsToDecimal } from "~/shared/money";
import { priceCoins } from "~/services/money/payments/pricing.server";
import { startPayment } from "~/services/money/payments/start.server";
import { idempotent } from "~/web/idempotency.server";

const schema = z.object({ packageId: z.string().max(40) });

/** POST {packageId} → {clientSecret, coins, amount}: the price is ours, whatever the client sends. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return idempotent(request, user.id, () =>
    apiResponse(async () => {
      const { packageId } = await readJson(request, schema);
      const product = priceCoins(packageId);
      if (!product || product.purpose !== "coins") throw new DomainError("unknown_product", "Unknown coin package");
      const { clientSecret, paymentId } = await startPayment(user.id, product);
      return Response.json({ clientSecret, paymentIntentId: paymentId, coins: Number(product.coins), amount: coinsToDecimal(BigInt(product.amountCents)) });
    }),
  );
}

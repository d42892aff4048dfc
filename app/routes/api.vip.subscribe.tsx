import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/web/auth.server";
import { DomainError } from "~/shared/domain-error";
import { apiResponse, readJson } from "~/web/http.server";
import { priceVip } from "~/services/money/payments/pricing.server";
import { startPayment } from "~/services/money/payments/start.server";
import { idempotent } from "~/web/idempotency.server";

const schema = z.object({ tier: z.string().max(20) });

/** POST {tier} → {clientSecret, tier}: the browser then completes the payment on /vip/checkout. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return idempotent(request, user.id, () =>
    apiResponse(async () => {
      const { tier } = await readJson(request, schema);
      const product = priceVip(tier);
      if (!product) throw new DomainError("unknown_product", "Unknown VIP tier");
      const { clientSecret, paymentId } = await startPayment(user.id, product);
      return Response.json({ clientSecret, paymentIntentId: paymentId, tier: product.product });
    }),
  );
}

import { DomainError } from "~/shared/domain-error";
import { getEnv } from "~/infra/env.server";
import { demoProvider } from "~/infra/payment-providers/demo-provider.server";
import { PaymentFailed, priceCoins, priceVip, type Product } from "./payments/pricing.server";
import { confirmPayment } from "./payments/settle.server";
import { startPayment } from "./payments/start.server";
import { assertMayPlay } from "../play-safety/responsible-play.server";
import { assertIdentityForDeposit } from "../play-safety/identity-gate.server";
import { vipDowngradeRefusal, type VipTierName } from "~/shared/vip";

/**
 * The checkout pages' actions: the product asked for, whether it may be bought, and the demo
 * card form; app/web/checkout-toasts.ts words the toasts the spec shows for each outcome.
 */
export function productFrom(url: URL): Product | undefined {
  return url.pathname.startsWith("/vip/") ? priceVip(url.searchParams.get("tier")) : priceCoins(url.searchParams.get("package"));
}

/**
 * Why the player may not buy this now (a break, an exclusion, a place no longer served, a
 * VIP tier below the one they hold), said before any payment form is shown; the purchase
 * itself checks again under the player's lock (reserveDeposit).
 */
export async function purchaseRefusal(
  user: { id: string; vipTier: VipTierName | null; vipExpiry: Date | null },
  product: Product,
  now = new Date(),
): Promise<string | undefined> {
  try {
    await assertMayPlay(user.id, now);
    await assertIdentityForDeposit(user.id);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return error.message;
  }
  return product.purpose === "vip" ? vipDowngradeRefusal(user, product.product as VipTierName, now) : undefined;
}

/** Demo mode: pays with a test card, all on our server (the number is never stored). */
export async function payWithDemoCard(userId: string, product: Product, cardNumber: string) {
  if (!getEnv().demoMode) throw new DomainError("unknown_product", "Demo payments are off");
  const { paymentId } = await startPayment(userId, product);
  await demoProvider.payWithTestCard(paymentId, cardNumber);
  const { settlement } = await confirmPayment(userId, paymentId);
  if (settlement.status === "failed") throw new PaymentFailed(settlement.message);
  return settlement;
}

import { paymentToasts } from "~/shared/payment-toasts";
import { DomainError } from "~/shared/domain-error";
import { getEnv } from "~/infra/env.server";
import { demoProvider } from "~/infra/payment-providers/demo-provider.server";
import { PaymentFailed, priceCoins, priceVip, type Product } from "./payments/pricing.server";
import { confirmPayment, type Settlement } from "./payments/settle.server";
import { startPayment } from "./payments/start.server";
import { assertMayPlay } from "../play-safety/responsible-play.server";
import { vipDowngradeRefusal, type VipTierName } from "~/shared/vip";
import type { NewToast } from "~/shared/toast";

/**
 * The checkout pages' actions: the demo card form, Stripe's hosted checkout for
 * browsers without JavaScript, and the toasts the spec shows for each outcome.
 */
export function productFrom(url: URL): Product | undefined {
  return url.pathname.startsWith("/vip/") ? priceVip(url.searchParams.get("tier")) : priceCoins(url.searchParams.get("package"));
}

/**
 * Why the player may not buy this now (a break, an exclusion, a place no longer served, a
 * VIP tier below the one they hold), as the toast that sends them back from a checkout
 * page before any payment form is shown; the purchase itself checks again under the
 * player's lock (reserveDeposit).
 */
export async function purchaseRefusal(
  user: { id: string; vipTier: VipTierName | null; vipExpiry: Date | null },
  product: Product,
  now = new Date(),
): Promise<NewToast | undefined> {
  const unavailable = (description: string): NewToast => ({ type: "error", title: "Checkout unavailable", description });
  try {
    await assertMayPlay(user.id, now);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return unavailable(error.message);
  }
  const downgrade = product.purpose === "vip" ? vipDowngradeRefusal(user, product.product as VipTierName, now) : undefined;
  return downgrade === undefined ? undefined : unavailable(downgrade);
}

export function successToast(settlement: Settlement): NewToast {
  if (settlement.status === "succeeded") {
    return settlement.purpose === "coins" ? paymentToasts.coinsAdded(settlement.coins) : paymentToasts.vipActive(settlement.tier);
  }
  if (settlement.status === "pending") return paymentToasts.processing("coins");
  return { type: "error", title: "Payment Failed", description: settlement.message };
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

import { DomainError } from "./domain-error";
import { getEnv } from "./env.server";
import { demoProvider } from "./payments/demo-provider.server";
import { confirmPayment, PaymentFailed, priceCoins, priceVip, startPayment, type Product, type Settlement } from "./payments.server";
import type { NewToast } from "./toast.server";

/**
 * The checkout pages' actions: the demo card form, Stripe's hosted checkout for
 * browsers without JavaScript, and the toasts the spec shows for each outcome.
 */
export function productFrom(url: URL): Product | undefined {
  return url.pathname.startsWith("/vip/") ? priceVip(url.searchParams.get("tier")) : priceCoins(url.searchParams.get("package"));
}

export function successToast(settlement: Settlement): NewToast {
  if (settlement.status === "succeeded" && settlement.purpose === "coins") {
    return { type: "success", title: "Payment Successful!", description: `${settlement.coins} coins have been added to your account!` };
  }
  if (settlement.status === "succeeded" && settlement.purpose === "vip") {
    return { type: "success", title: `Welcome to ${settlement.tier.toUpperCase()} tier!`, description: "Your benefits are now active." };
  }
  if (settlement.status === "pending") {
    return { type: "info", title: "Payment Processing", description: "Your payment is being processed; your coins will appear shortly." };
  }
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

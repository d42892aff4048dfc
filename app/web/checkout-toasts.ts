import type { Settlement } from "~/services/money/payments/settle.server";
import { paymentToasts } from "~/shared/payment-toasts";
import type { NewToast } from "~/shared/toast";

/** The toast that sends a player back from a checkout page they may not buy from now. */
export function checkoutUnavailable(reason: string): NewToast {
  return { type: "error", title: "Checkout unavailable", description: reason };
}

/** The toast a settled payment ends in, after the demo card or Stripe's hosted checkout. */
export function successToast(settlement: Settlement): NewToast {
  if (settlement.status === "succeeded") {
    return settlement.purpose === "coins" ? paymentToasts.coinsAdded(settlement.coins) : paymentToasts.vipActive(settlement.tier);
  }
  if (settlement.status === "pending") return paymentToasts.processing("coins");
  return { type: "error", title: "Payment Failed", description: settlement.message };
}

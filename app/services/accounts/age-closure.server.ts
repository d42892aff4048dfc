import { openCardPaymentsOf } from "~/models/accounts/identity-check.server";
import { paymentProvider } from "~/infra/payment-providers/current-provider.server";
import { getLogger } from "~/infra/logger.server";
import { DomainError } from "~/shared/domain-error";
import { reversePayment } from "../money/payment-reversals.server";
import { closeUnderAgeAccount } from "./account-closure.server";

/**
 * A verified date of birth under 18 (ADR 080): every card payment's open part goes back to
 * its card (the coins it bought with it, as any refund takes them: payment-reversals), then
 * the account is closed. Safe to run again (a repeated webhook, the player's return): a
 * refund is found by its key, a reversal counts the payment's refunded total, and a closed
 * account stays closed. The account is suspended before this runs, so nothing new comes in.
 */
export async function closeUnderAge(userId: string, now = new Date()): Promise<void> {
  const provider = paymentProvider();
  for (const payment of await openCardPaymentsOf(userId)) {
    if (payment.provider !== provider.name) continue;
    const refund = await provider.refundPayment({
      paymentId: payment.providerPaymentId,
      amountCents: payment.openCents,
      idempotencyKey: `under-age:${payment.id}`,
      metadata: { userId, reason: "under_age" },
    });
    if (refund.status === "succeeded" || refund.status === "pending") {
      await reversePayment(payment.providerPaymentId, { reason: "refund", refundedCents: payment.refundedCents + payment.openCents }, now);
    }
  }
  try {
    await closeUnderAgeAccount(userId, now);
  } catch (error) {
    // A withdrawal or payment still in progress: the account stays suspended and flagged for support.
    if (!(error instanceof DomainError)) throw error;
    getLogger().warn({ event: "under_age_closure_waiting", userId, reason: error.message }, "an under-age account could not be closed yet");
  }
}

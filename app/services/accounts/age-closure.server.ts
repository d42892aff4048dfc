import { openCardPaymentsOf, underAgeAccountsOpen, underAgeRefundFailureRecorded, UNDER_AGE_REFUND_FAILED } from "~/models/accounts/identity-check.server";
import { recordAudit } from "~/models/back-office/audit-event.server";
import { db } from "~/models/db.server";
import { flagUser } from "~/models/accounts/user.server";
import { lockPlayer } from "~/models/accounts/user-closure.server";
import { paymentProvider } from "~/infra/payment-providers/current-provider.server";
import { getLogger } from "~/infra/logger.server";
import { DomainError } from "~/shared/domain-error";
import { formatDollars } from "~/shared/money";
import { reversePayment } from "../money/payment-reversals.server";
import { closeUnderAgeAccount } from "./account-closure.server";

export type UnderAgeClosure = "closed" | "waiting";

/**
 * A verified date of birth under 18 (ADR 080): every card payment's open part goes back to
 * its card (the coins it bought with it, as any refund takes them: payment-reversals), then
 * the account is closed. Safe to run again (a repeated webhook, the player's return, the
 * sweep): a refund is found by its key, a reversal counts the payment's refunded total, and a
 * closed account stays closed. The account is suspended before this runs, so nothing new
 * comes in. While any payment's money has not gone back, the account is not closed: closing
 * voids the cash left, and that cash would be the minor's own money.
 */
export async function closeUnderAge(userId: string, now = new Date()): Promise<UnderAgeClosure> {
  const provider = paymentProvider();
  let unreturnedCents = 0;
  for (const payment of await openCardPaymentsOf(userId)) {
    if (payment.provider !== provider.name) {
      unreturnedCents += payment.openCents;
      continue;
    }
    const refund = await provider.refundPayment({
      paymentId: payment.providerPaymentId,
      amountCents: payment.openCents,
      idempotencyKey: `under-age:${payment.id}`,
      metadata: { userId, reason: "under_age" },
    });
    if (refund.status === "succeeded" || refund.status === "pending") {
      await reversePayment(payment.providerPaymentId, { reason: "refund", refundedCents: payment.refundedCents + payment.openCents }, now);
    } else {
      unreturnedCents += payment.openCents;
    }
  }
  if (unreturnedCents > 0) {
    await flagForSupport(
      userId,
      `under 18 by a verified date of birth: ${formatDollars(BigInt(unreturnedCents))} of card payments could not go back to the card; return it another way, then close the account`,
      now,
    );
    getLogger().warn({ event: "under_age_refund_waiting", userId, unreturnedCents }, "an under-age account's payments could not all be refunded");
    return "waiting";
  }
  try {
    await closeUnderAgeAccount(userId, now);
    return "closed";
  } catch (error) {
    // A withdrawal or payment still in progress: the account stays suspended and flagged, and the sweep tries again.
    if (!(error instanceof DomainError)) throw error;
    await flagForSupport(
      userId,
      `under 18 by a verified date of birth: card payments refunded; the account closes by itself once this is over: ${error.message}`,
      now,
    );
    getLogger().warn({ event: "under_age_closure_waiting", userId, reason: error.message }, "an under-age account could not be closed yet");
    return "waiting";
  }
}

/**
 * A refund to a minor's card the bank turned down after it was sent (pending when the
 * account closed, the coins it paid for taken back then): the money came back to us, so
 * support is told to return it another way, once per refund however many events tell it.
 */
export async function followUnderAgeRefund(refundId: string, now = new Date()): Promise<void> {
  const refund = await paymentProvider().getRefund(refundId);
  const userId = refund.metadata?.userId;
  if (refund.status !== "failed" || refund.metadata?.reason !== "under_age" || !userId) return;
  const failed = { refundId, amountCents: refund.amountCents ?? 0, failureReason: refund.failureReason ?? "failed" };
  const told = await db().$transaction(async (tx) => {
    // The player's row first, so that two events of one refund at once record it once.
    if (!(await lockPlayer(tx, userId)) || (await underAgeRefundFailureRecorded(tx, userId, refundId))) return false;
    const reason = `under 18 by a verified date of birth: a refund of ${formatDollars(BigInt(failed.amountCents))} to the card failed at the bank (${failed.failureReason}) after its coins were taken back; return it another way`;
    await flagUser(tx, userId, reason, now);
    await recordAudit(tx, { actor: "provider", action: UNDER_AGE_REFUND_FAILED, target: `user:${userId}`, details: failed });
    return true;
  });
  if (told) getLogger().warn({ event: "under_age_refund_failed", userId, ...failed }, "an under-age account's refund failed after it was sent");
}

/** The admin queue shows why the account waits. */
function flagForSupport(userId: string, reason: string, now: Date): Promise<void> {
  return flagUser(db(), userId, reason, now, { once: true });
}

/**
 * The sweep's part (startPaymentSweep): finishes the closures of under-age accounts that
 * waited (a withdrawal then in progress, the provider down when the result came). Returns
 * how many it closed.
 */
export async function finishUnderAgeClosures(now = new Date(), take = 50): Promise<number> {
  let closed = 0;
  for (const { id } of await underAgeAccountsOpen(take)) {
    try {
      if ((await closeUnderAge(id, now)) === "closed") closed += 1;
    } catch (error) {
      // One account the provider cannot answer for must not hold up the others.
      getLogger().warn({ err: error, userId: id }, "under-age closure not finished");
    }
  }
  return closed;
}

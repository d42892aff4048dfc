import * as payments from "~/models/money/payment.server";
import { getLogger } from "~/infra/logger.server";
import { finishUnderAgeClosures } from "../../accounts/age-closure.server";
import { settleOpenPayouts } from "../payouts.server";
import { cancelUnfinished, isOpen, settleFromProvider } from "./settle.server";

/** A payment still pending this long is asked about again. */
export const STALE_PAYMENT_MS = 2 * 60 * 1000;
/**
 * A payment still unpaid this long after it started (a card form or checkout page left
 * open) is canceled at the provider, so that it stops holding the player's deposit limits
 * (docs/decisions/008-responsible-play.md).
 */
export const UNFINISHED_PAYMENT_MS = 30 * 60 * 1000;
/** A reservation the provider never named this long after it was made is given up (the provider client gives up within a minute). */
export const ABANDONED_RESERVATION_MS = 10 * 60 * 1000;

/**
 * Settles payments whose confirm call and webhook never arrived (the browser closed, the
 * process died between the charge and the credit, webhooks not configured): each is
 * settled from the provider's record, exactly once like any other settlement. One still
 * unpaid UNFINISHED_PAYMENT_MS after it started is canceled at the provider. Returns how
 * many are no longer pending.
 */
export async function settleStalePayments(now = new Date(), take = 50): Promise<number> {
  // A process that died between reserving a payment and the provider's answer left a
  // reservation that no player can pay (they never got its card form or page).
  await payments.abandonReservations({ startedBefore: new Date(now.getTime() - ABANDONED_RESERVATION_MS) }, "The payment was not started.", now);
  const unfinishedBefore = now.getTime() - UNFINISHED_PAYMENT_MS;
  let settled = 0;
  // Every page of them: payments that stay pending (processing) must not hide the rest.
  for (let after: payments.UnfinishedPayment | undefined; ;) {
    const page = await payments.stalePendingPayments(now, new Date(now.getTime() - STALE_PAYMENT_MS), take, after);
    for (const payment of page) {
      try {
        let settlement = await settleFromProvider(payment, now);
        // Still unpaid (a declined card leaves it open: another card may pay it) and too old.
        // One processing is being paid: too late to cancel, so it is only looked at again.
        const processing = settlement.status === "pending" && settlement.processing === true;
        if (isOpen(settlement) && !processing && payment.createdAt.getTime() <= unfinishedBefore) settlement = await cancelUnfinished(payment, now);
        if (!isOpen(settlement)) settled += 1;
      } catch (error) {
        // One payment the provider cannot answer for must not hold up the others.
        getLogger().warn({ err: error, providerPaymentId: payment.providerPaymentId }, "stale payment not settled");
      }
    }
    if (page.length < take) return settled;
    after = page.at(-1);
  }
}

/**
 * Runs `settleStalePayments`, then the payouts' own sweep (approved payouts a crash left
 * unsent, refunds still open at the provider), then the under-age closures that waited,
 * every `intervalMs` until stopped (every instance may: settling is exactly-once).
 */
export function startPaymentSweep({ intervalMs = 60_000 } = {}) {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    // A pass still running (the provider slow or down) is not joined by another.
    running ??= settleStalePayments()
      .then(() => settleOpenPayouts())
      .then(() => finishUnderAgeClosures())
      .catch((error: unknown) => getLogger().error({ err: error }, "payment sweep failed"))
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

import type { Tx } from "~/models/db.server";
import { maskedDestinationOf } from "~/models/money/withdrawal.server";
import { getEnv } from "~/infra/env.server";
import { noticeEvents, publish } from "~/infra/events.server";
import { queueMail } from "~/infra/mail/outbox.server";
import { longUtcDate, utcMinute } from "~/shared/dates";
import { coinsToDecimal } from "~/shared/money";

/** A deposit limit set, lowered (at once) or raised or removed (after the cooling-off period). */
export async function queueLimitMail(tx: Tx, userId: string, change: { period: string; cents: number | null; from: Date }): Promise<void> {
  await queueMail(tx, {
    key: `deposit-limit:${userId}:${change.period}:${change.from.getTime()}:${change.cents ?? "none"}`,
    kind: "deposit_limit_changed",
    userId,
    data: { period: change.period, limit: change.cents === null ? "no limit" : `$${coinsToDecimal(BigInt(change.cents))}`, from: utcMinute(change.from) },
  });
}

/** A receipt for a card payment (coins or VIP) that succeeded, in the transaction that credits it. */
export async function queueReceipt(
  tx: Tx,
  payment: { id: string; userId: string; providerPaymentId: string; amountCents: number },
  description: string,
  now: Date,
): Promise<void> {
  await queueMail(tx, {
    key: `receipt:${payment.id}`,
    kind: "receipt",
    userId: payment.userId,
    data: { amount: coinsToDecimal(BigInt(payment.amountCents)), description, reference: payment.providerPaymentId, date: longUtcDate(now) },
  });
}

/**
 * A withdrawal's outcome by mail, in the transaction that settles it: paid, or
 * failed (refused by an admin or by the provider) with the reason and what came back to
 * the player's cash. Money-moving news: it goes whatever the notification setting says.
 */
export async function queuePayoutOutcomeMail(
  tx: Tx,
  w: { id: string; userId: string; amount: bigint },
  outcome: { status: "completed" } | { status: "failed"; reason: string; returned: bigint },
): Promise<void> {
  const base = { amount: coinsToDecimal(w.amount), destination: await maskedDestinationOf(tx, w.id) };
  if (outcome.status === "completed") {
    await queueMail(tx, { key: `withdrawal-completed:${w.id}`, kind: "withdrawal_completed", userId: w.userId, data: base });
    return;
  }
  await queueMail(tx, {
    key: `withdrawal-failed:${w.id}`,
    kind: "withdrawal_failed",
    userId: w.userId,
    data: { ...base, reason: outcome.reason.replace(/\.$/, ""), returned: coinsToDecimal(outcome.returned) },
  });
}

/** What a refund or dispute moved, told to the player: the coins (a coin purchase's) or the VIP days. */
export type CoinsMoved = { cash: bigint; bonus: bigint; missing?: bigint } | { vipDays: number } | "unknown";

/**
 * Tells the player what a refund made outside the site, a dispute or a dispute won moved: by
 * mail, in the transaction that moved it, and a notice that their open pages read again.
 * Money-moving news: it goes whatever the notification setting says.
 */
export async function tellPlayerOfReversal(
  tx: Tx,
  key: string,
  payment: { userId: string; providerPaymentId: string; amountCents: number },
  what: { kind: "coins_taken_back"; reason: "refund" | "dispute" } | { kind: "coins_given_back" },
  cents: number,
  moved: CoinsMoved,
): Promise<void> {
  const coins =
    moved === "unknown"
      ? { unknown: true }
      : "vipDays" in moved
        ? { vip: true, vipDays: moved.vipDays }
        : { cash: moved.cash.toString(), bonus: moved.bonus.toString(), missing: (moved.missing ?? 0n).toString() };
  await queueMail(tx, {
    key,
    kind: what.kind,
    userId: payment.userId,
    data: {
      ...("reason" in what ? { reason: what.reason } : {}),
      amount: coinsToDecimal(BigInt(cents)),
      paid: coinsToDecimal(BigInt(payment.amountCents)),
      reference: payment.providerPaymentId,
      support: getEnv().SUPPORT_EMAIL,
      ...coins,
    },
  });
  for (const event of noticeEvents([payment.userId])) await publish(tx, event);
}

import { recordAudit } from "~/models/back-office/audit-event.server";
import { db, type Tx } from "~/models/db.server";
import { houseAccountId, lockAccounts, postTransaction, userAccountId } from "~/models/money/ledger.server";
import * as legs from "~/models/money/payout-leg.server";
import { flagUser, lockUser, userStanding } from "~/models/accounts/user.server";
import { lockWithdrawal, updateWithdrawal } from "~/models/money/withdrawal.server";
import { DomainError } from "~/shared/domain-error";
import { noticeEvents, publish } from "~/infra/events.server";
import { getLogger } from "~/infra/logger.server";
import { paymentProvider } from "~/infra/payment-providers/current-provider.server";
import { queuePayoutOutcomeMail } from "./mail-notices.server";
import { bonusCoveredBy, smaller } from "~/shared/coin-mix";
import { PaymentProviderUnavailable, type ProviderRefund } from "~/infra/payment-providers/provider";

/**
 * Payouts that move money (PRODUCT.md "Payments and withdrawals"). A withdrawal
 * is paid in legs: refunds of the player's card payments of the last 180 days not yet
 * refunded, newest first (money goes back the way it came), then a transfer of the rest to
 * the method they chose. A leg completes only when the money moved: the provider confirmed
 * the refund, or an admin recorded the transfer's reference. A leg that fails gives its
 * amount back to the player's cash, with the reason.
 */
export const REFUND_WINDOW_DAYS = 180;

/** No admin approves, verifies or completes anything for their own account (PRODUCT.md). */
export function refuseOwnAccount(adminId: string, userId: string) {
  if (adminId === userId) throw new DomainError("own_account", "Another admin must decide this: it concerns your own account");
}

/** Why the player may not be paid now (suspended, or flagged for a dispute or a charge found late), if so. */
export function payeeBlock(user: { suspendedAt: Date | null; flaggedAt: Date | null; flagReason: string | null }): string | null {
  if (user.suspendedAt) return "The account is suspended";
  if (user.flaggedAt) return `The account is flagged for review: ${user.flagReason ?? "no reason recorded"}`;
  return null;
}

/** Refuses to pay an account that may not be paid (409, with the reason). */
export async function refuseBlockedPayee(tx: Tx, userId: string) {
  const user = await userStanding(tx, userId);
  if (!user) throw new DomainError("user_not_found", "Player not found");
  const blocked = payeeBlock(user);
  if (blocked) throw new DomainError("payee_blocked", `${blocked}: nothing is paid to it`);
}

export type PlannedLeg = legs.NewLeg & { paidAt?: Date };

/** How `amount` coins would be paid out now: refunds of card payments first, the rest by transfer. */
export async function planLegs(client: Tx, userId: string, amount: bigint, now: Date): Promise<PlannedLeg[]> {
  const payments = await legs.refundablePayments(client, userId, new Date(now.getTime() - REFUND_WINDOW_DAYS * 86_400_000));
  const planned: PlannedLeg[] = [];
  let left = amount;
  for (const payment of payments) {
    if (left === 0n) break;
    const part = BigInt(payment.refundableCents) < left ? BigInt(payment.refundableCents) : left;
    planned.push({ kind: "card_refund", paymentId: payment.id, amount: part, paidAt: payment.createdAt });
    left -= part;
  }
  if (left > 0n) planned.push({ kind: "transfer", paymentId: null, amount: left });
  return planned;
}

/** What the withdraw page shows before a request: how much would go back to cards, and from which payments. */
export async function refundableNow(userId: string, now = new Date()) {
  const payments = await legs.refundablePayments(db(), userId, new Date(now.getTime() - REFUND_WINDOW_DAYS * 86_400_000));
  return {
    refundableCoins: payments.reduce((sum, p) => sum + BigInt(p.refundableCents), 0n),
    payments: payments.map((p) => ({
      paidAt: p.createdAt,
      amountCents: p.amountCents,
      refundableCents: p.refundableCents,
      coinsCredited: p.coinsCredited ?? 0n,
    })),
  };
}

/**
 * The player's bonus balance, locked until the transaction ends, so spending cannot take
 * it between this read and the refund taking its part back (that raced into a 500). The
 * player's row first, then their bonus account and promotions together (sorted), as
 * moveBonus will lock them: the order the draws take.
 */
async function lockedBonus(tx: Tx, userId: string): Promise<bigint> {
  await lockUser(tx, userId);
  const bonus = await userAccountId(tx, userId, "user_bonus");
  const locked = await lockAccounts(tx, [bonus, await houseAccountId("promotions", tx)]);
  return locked.get(bonus)?.balance ?? 0n;
}

/** Moves `amount` bonus coins to the player from promotions (negative: back to promotions), as a reversal. */
async function moveBonus(tx: Tx, userId: string, amount: bigint, { reference, memo }: { reference: string; memo: string }) {
  await postTransaction(tx, {
    kind: "reversal",
    reference,
    userId,
    memo,
    postings: [
      { accountId: await houseAccountId("promotions", tx), amount: -amount },
      { accountId: await userAccountId(tx, userId, "user_bonus"), amount },
    ],
  });
}

/** `held`: an admin's reconciliation, which settles only a leg held for review. */
export type Outcome =
  | { status: "completed"; reference?: string; by?: string; held?: true }
  | { status: "failed"; reason: string; by?: string; held?: true }
  /** The provider refused the refund (already refunded or disputed elsewhere): held for support. */
  | { status: "review"; reason: string };

/** Checks made under the withdrawal's lock before a leg is settled (who may be paid). */
export type Guard = (tx: Tx, w: { userId: string }) => Promise<void>;

/** The withdrawal's state from its legs: completed when all are, failed once all are settled and one failed. */
function stateOf(all: legs.Leg[]): { status: "processing" | "completed" | "failed"; reason?: string } {
  if (all.every((l) => l.status === "completed")) return { status: "completed" };
  if (all.every((l) => l.status === "completed" || l.status === "failed")) {
    return { status: "failed", reason: all.find((l) => l.status === "failed")?.failureReason ?? "The payout failed" };
  }
  return { status: "processing" };
}

/**
 * The withdrawal's state changed: the player is told on their next page (payout_notice_id),
 * and their open pages at once (a notice event). Inside the transaction that changed it.
 */
export async function tellPlayerOfPayout(tx: Tx, userId: string, withdrawalId: string): Promise<void> {
  await legs.notePayoutNews(tx, userId, withdrawalId);
  for (const event of noticeEvents([userId])) await publish(tx, event);
}

/**
 * Settles one leg under its withdrawal's lock, once: completed moves its amount out of the
 * hold (a refund back to card deposits: it undoes that much of a purchase; a transfer to
 * the house's payouts account); failed gives it back to the player's cash (and a refund
 * leg its cents back to the payment). Then the withdrawal follows its legs. False when
 * there was nothing to settle (settled already, held for review and not reconciled, or
 * reconciled and not held for review).
 */
export async function settleLeg(withdrawalId: string, legId: string, outcome: Outcome, now: Date, guard?: Guard): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const w = await lockWithdrawal(tx, withdrawalId);
    if (!w) return false;
    await guard?.(tx, w);
    const all = await legs.lockLegs(tx, withdrawalId);
    const leg = all.find((l) => l.id === legId);
    if (!leg || leg.status === "completed" || leg.status === "failed") return false;
    // A refund held for review is settled only by an admin's reconciliation, and a
    // reconciliation settles only a refund held for review.
    if ((leg.status === "review") !== (outcome.status !== "review" && outcome.held === true)) return false;
    // The payment's row before any account: the order reversePayment takes them in.
    const refundSent = leg.kind === "card_refund" && (leg.status === "processing" || leg.status === "review") && leg.paymentId !== null;
    if (refundSent) await legs.lockPaymentById(tx, leg.paymentId!);
    const hold = await userAccountId(tx, w.userId, "withdrawal_hold");
    if (outcome.status === "review") {
      // Nothing moves: the provider says the payment was refunded or disputed already, so
      // the cents may have reached the card by another way. Support reconciles it.
      await legs.updateLeg(tx, leg.id, { status: "review", failureReason: outcome.reason });
      await flagUser(tx, w.userId, `refund of a withdrawal refused by the provider: ${outcome.reason}`, now);
      leg.status = "review";
    } else if (outcome.status === "completed") {
      await postTransaction(tx, {
        kind: "payout",
        reference: `payout:${leg.id}`,
        userId: w.userId,
        memo: leg.kind,
        postings: [
          { accountId: hold, amount: -leg.amount },
          { accountId: await houseAccountId(leg.kind === "card_refund" ? "card_deposits" : "payouts", tx), amount: leg.amount },
        ],
      });
      await legs.updateLeg(tx, leg.id, {
        status: "completed",
        settledAt: now,
        ...(outcome.reference ? { providerReference: outcome.reference } : {}),
        ...(outcome.by ? { completedById: outcome.by } : {}),
      });
      leg.status = "completed";
    } else {
      await postTransaction(tx, {
        kind: "withdrawal_release",
        reference: `payout-return:${leg.id}`,
        userId: w.userId,
        memo: outcome.reason,
        postings: [
          { accountId: hold, amount: -leg.amount },
          { accountId: await userAccountId(tx, w.userId), amount: leg.amount },
        ],
      });
      if (refundSent) {
        await legs.addRefundedCents(tx, leg.paymentId!, -Number(leg.amount));
        // The purchase's bonus taken back with the refund comes back with it.
        if (leg.bonusTaken > 0n) {
          await moveBonus(tx, w.userId, leg.bonusTaken, { reference: `payout-leg-bonus-return:${leg.id}`, memo: "refund to the card failed" });
        }
      }
      await legs.updateLeg(tx, leg.id, {
        status: "failed",
        failureReason: outcome.reason,
        settledAt: now,
        ...(outcome.by ? { completedById: outcome.by } : {}),
      });
      leg.status = "failed";
      leg.failureReason = outcome.reason;
    }
    const state = stateOf(all);
    await updateWithdrawal(tx, w.id, { status: state.status, ...(state.reason ? { failureReason: state.reason } : {}) });
    if (state.status !== w.status) await tellPlayerOfPayout(tx, w.userId, w.id);
    if (state.status !== w.status && state.status !== "processing") {
      const returned = all.filter((l) => l.status === "failed").reduce((sum, l) => sum + l.amount, 0n);
      await queuePayoutOutcomeMail(tx, w, state.status === "completed" ? { status: "completed" } : { status: "failed", reason: state.reason!, returned });
    }
    await recordAudit(tx, {
      actor: ("by" in outcome ? outcome.by : undefined) ?? "provider",
      action: `payout.leg_${outcome.status}`,
      target: `withdrawal:${w.id}`,
      details: {
        leg: leg.id,
        kind: leg.kind,
        amount: leg.amount.toString(),
        ...(outcome.status === "completed" ? { reference: outcome.reference ?? leg.providerReference } : { reason: outcome.reason }),
        after: { status: state.status },
      },
    });
    return true;
  });
}

/**
 * Sends an approved withdrawal: its refund legs are claimed against their payments (the
 * refunded total grows first, so the provider's refund event takes no coins back) and
 * sent to the provider with the leg's id as the idempotency key; the transfer waits for
 * its reference. Safe to run again for the same withdrawal (after a crash, by the sweep).
 */
export async function sendPayout(withdrawalId: string, now = new Date()): Promise<void> {
  const toSend = await db().$transaction(async (tx) => {
    const w = await lockWithdrawal(tx, withdrawalId);
    if (!w || (w.status !== "approved" && w.status !== "processing")) return [];
    const all = await legs.lockLegs(tx, withdrawalId);
    const refusals: { leg: legs.Leg; reason: string }[] = [];
    // The payments' rows first (their refunded totals grow before the provider is called),
    // then the account's row when it is flagged, then its ledger accounts: users before
    // accounts, the order the draws take.
    const claims: { leg: legs.Leg; bonus: bigint }[] = [];
    for (const leg of all.filter((l) => l.status === "pending" && l.kind === "card_refund")) {
      const payment = await legs.lockPaymentById(tx, leg.paymentId!);
      if (!payment || BigInt(payment.amountCents - payment.takenBackCents) < leg.amount) {
        refusals.push({ leg, reason: "The card payment was already refunded or disputed, so it cannot be paid back to the card" });
        continue;
      }
      await legs.addRefundedCents(tx, leg.paymentId!, Number(leg.amount));
      const purchase = { amountCents: payment.amountCents, coinsCredited: payment.coinsCredited ?? 0n };
      claims.push({ leg, bonus: bonusCoveredBy(purchase, payment.takenBackCents, Number(leg.amount)) });
    }
    // A refund takes back the bonus that came with that much of the purchase (as a refund
    // by the provider does), as far as the player still has it. What they played
    // already flags the account, as there: buying, playing the bonus and
    // refunding the purchase must not be a loop that pays.
    let left = claims.length > 0 ? await lockedBonus(tx, w.userId) : 0n;
    const takes = claims.map(({ leg, bonus }) => {
      const taken = smaller(bonus, left);
      left -= taken;
      return { leg, bonus, taken };
    });
    const played = takes.reduce((sum, t) => sum + t.bonus - t.taken, 0n);
    if (played > 0n) {
      const paymentIds = takes.filter((t) => t.taken < t.bonus).map((t) => t.leg.providerPaymentId);
      await flagUser(tx, w.userId, `refund of ${paymentIds.join(", ")} to the card: ${played} bonus coins of the purchase already played`, now);
    }
    for (const { leg, taken } of takes.filter((t) => t.taken > 0n)) {
      await moveBonus(tx, w.userId, -taken, { reference: `payout-leg-bonus:${leg.id}`, memo: "bonus of a purchase refunded to the card" });
      await legs.updateLeg(tx, leg.id, { bonusTaken: taken });
      leg.bonusTaken = taken;
    }
    for (const leg of all.filter((l) => l.status === "pending" && !refusals.some((r) => r.leg === l))) {
      await legs.updateLeg(tx, leg.id, { status: "processing" });
      leg.status = "processing";
    }
    if (w.status === "approved") {
      await updateWithdrawal(tx, w.id, { status: "processing" });
      await tellPlayerOfPayout(tx, w.userId, w.id);
    }
    return [
      ...all.filter((l) => l.kind === "card_refund" && l.status === "processing" && !l.providerReference).map((leg) => ({ leg, reason: null })),
      ...refusals,
    ];
  });
  for (const { leg, reason } of toSend) {
    if (reason) {
      await settleLeg(withdrawalId, leg.id, { status: "failed", reason }, now);
      continue;
    }
    await sendRefund(leg, now);
  }
}

async function sendRefund(leg: legs.Leg, now: Date): Promise<void> {
  try {
    const refund = await paymentProvider().refundPayment({
      paymentId: leg.providerPaymentId!,
      amountCents: Number(leg.amount),
      idempotencyKey: `payout-leg:${leg.id}`,
      metadata: { payoutLeg: leg.id, withdrawal: leg.withdrawalId },
    });
    await applyRefund(leg.withdrawalId, leg.id, refund, now);
  } catch (error) {
    // The provider is down: the leg stays processing and the sweep sends it again (same key).
    if (!(error instanceof PaymentProviderUnavailable)) throw error;
    getLogger().warn({ leg: leg.id }, "refund not sent: the provider is unavailable; the sweep retries");
  }
}

async function applyRefund(withdrawalId: string, legId: string, refund: ProviderRefund, now: Date) {
  if (refund.status === "succeeded") return settleLeg(withdrawalId, legId, { status: "completed", reference: refund.id }, now);
  if (refund.status === "refused") return settleLeg(withdrawalId, legId, { status: "review", reason: refund.failureReason ?? "refused by the provider" }, now);
  if (refund.status === "failed") {
    return settleLeg(
      withdrawalId,
      legId,
      { status: "failed", reason: `The refund to your card failed (${refund.failureReason ?? "declined by the bank"})` },
      now,
    );
  }
  // Pending at the bank: remember the refund, and wait for its event or the sweep.
  await db().$transaction(async (tx) => {
    if (!(await lockWithdrawal(tx, withdrawalId))) return;
    const leg = (await legs.lockLegs(tx, withdrawalId)).find((l) => l.id === legId);
    if (leg?.status === "processing" && !leg.providerReference) await legs.updateLeg(tx, legId, { providerReference: refund.id });
  });
}

/**
 * A refund event from the provider: read the refund from the provider (never from the event)
 * and settle its leg. False when the refund is no withdrawal's.
 */
export async function refreshRefund(refundId: string, now = new Date()): Promise<boolean> {
  const leg = await legs.findLegByReference(refundId);
  if (!leg) return false;
  await applyRefund(leg.withdrawalId, leg.id, await paymentProvider().getRefund(refundId), now);
  return true;
}

/** The news of the player's withdrawal whose state changed last, taken once (app/web/payout-toasts words it). */
export function takePayoutNews(userId: string, withdrawalId: string) {
  return legs.takePayoutNews(userId, withdrawalId);
}

/** The sweep: sends approved withdrawals a crash left unsent, and asks the provider about refunds still open. */
export async function settleOpenPayouts(now = new Date()): Promise<void> {
  // One payout the provider cannot answer for must not hold up the others.
  const each = async (what: string, run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (error) {
      getLogger().warn({ err: error, payout: what }, "payout not settled by the sweep");
    }
  };
  for (const { id } of await legs.approvedWithdrawals(500)) await each(id, () => sendPayout(id, now));
  for (const leg of await legs.openRefundLegs(500)) {
    await each(leg.withdrawalId, () => (leg.providerReference ? refreshRefund(leg.providerReference, now) : sendPayout(leg.withdrawalId, now)));
  }
}

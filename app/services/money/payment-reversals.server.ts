import { randomUUID } from "node:crypto";
import { recordAudit } from "~/models/back-office/audit-event.server";
import { db } from "~/models/db.server";
import { houseAccountId, nonZero, postTransaction, userAccountId, userBalances } from "~/models/money/ledger.server";
import * as payments from "~/models/money/payment.server";
import { claimDispute, lockDispute, markDisputeWon, recordDisputeTaken } from "~/models/money/payment-dispute.server";
import { flagUser } from "~/models/accounts/user.server";
import { bonusCoveredBy, paidMix, smaller } from "~/shared/coin-mix";
import type { Reversal } from "~/infra/payment-providers/provider";
import { VIP_PERIOD_DAYS } from "~/shared/vip";
import { tellPlayerOfReversal, type CoinsMoved } from "./mail-notices.server";

/**
 * Takes back what a refund or dispute of a payment newly covers (PRODUCT.md "Refunds and
 * disputes take back exactly what they cover"): for a coin purchase, the covered cents as
 * cash and the bonus that came with the payment in proportion (floor(bonus × covered ÷
 * price)), as far as the player still has them; what is already spent flags the account,
 * and so does every dispute (a charge-back: PRODUCT.md, nothing is paid to such an account).
 * A refund event carries the payment's refunded total so far, so a repeat, or a refund
 * this site made itself (a withdrawal paid back to the card, already counted), takes
 * nothing; a dispute is taken back once, by its id, and no event is handled twice. A VIP purchase refunded or disputed in full loses its 30 days.
 */
export async function reversePayment(providerPaymentId: string, reversal: Reversal, now = new Date(), event?: { id: string; type: string }) {
  await db().$transaction(async (tx) => {
    // A repeated event, or a second event of the same dispute, changes nothing (issue 31, item 4).
    if (event && !(await payments.claimProviderEvent(tx, event.id, event.type))) return;
    const payment = await payments.lockPayment(tx, providerPaymentId);
    if (!payment || (payment.status !== "succeeded" && payment.status !== "refunded" && payment.status !== "disputed")) return;
    if (reversal.reason === "dispute") {
      const dispute = { disputeId: reversal.disputeId, paymentId: payment.id, amountCents: reversal.amountCents, eventId: event?.id };
      if (!(await claimDispute(tx, dispute))) return;
    }
    const open = payment.amountCents - payment.refundedCents - payment.disputedCents;
    const wanted = reversal.reason === "refund" ? reversal.refundedCents - payment.refundedCents : reversal.amountCents;
    const covered = Math.max(0, Math.min(wanted, open));
    if (wanted > open) {
      // More than is left of it: a dispute of cents already paid back (to the card, by a
      // withdrawal), or a refund the site did not make. Support looks at it.
      await flagUser(tx, payment.userId, `${reversal.reason} of ${providerPaymentId} covers ${wanted - open} cents already refunded or disputed`, now);
      await recordAudit(tx, {
        actor: "provider",
        action: `payment.${reversal.reason}_overlap`,
        target: `user:${payment.userId}`,
        details: { providerPaymentId, wantedCents: wanted, openCents: open },
      });
    }
    if (covered === 0) return;
    const refundedCents = payment.refundedCents + (reversal.reason === "refund" ? covered : 0);
    const disputedCents = payment.disputedCents + (reversal.reason === "dispute" ? covered : 0);
    const whole = refundedCents + disputedCents === payment.amountCents;
    await payments.updatePayment(tx, payment.id, {
      refundedCents,
      disputedCents,
      ...(whole ? { status: reversal.reason === "refund" ? "refunded" : "disputed" } : {}),
    });
    const details = { providerPaymentId, amountCents: payment.amountCents, coveredCents: covered, refundedCents, disputedCents };
    const chargedBack = reversal.reason === "dispute" ? `dispute of ${providerPaymentId}: ${covered} cents charged back` : null;
    // What a dispute takes is kept with it: a win gives back exactly that (ADR 108).
    const keepTaken = (taken: { cash: bigint; bonus: bigint }) =>
      reversal.reason === "dispute" ? recordDisputeTaken(tx, reversal.disputeId, { coveredCents: covered, ...taken }) : undefined;
    // The player hears of it (a refund the site made itself covered nothing new, and returned above).
    const tell = (moved: CoinsMoved) =>
      tellPlayerOfReversal(
        tx,
        reversal.reason === "dispute" ? `dispute-taken:${reversal.disputeId}` : `refund:${providerPaymentId}:${refundedCents}`,
        payment,
        { kind: "coins_taken_back", reason: reversal.reason },
        covered,
        moved,
      );
    if (payment.purpose === "vip") {
      await keepTaken({ cash: 0n, bonus: 0n });
      await tell({ vipDays: whole ? VIP_PERIOD_DAYS : 0 });
      if (whole) await payments.shortenVip(tx, payment.userId, now, VIP_PERIOD_DAYS);
      if (chargedBack) await flagUser(tx, payment.userId, chargedBack, now);
      await recordAudit(tx, { actor: "provider", action: `payment.${reversal.reason}`, target: `user:${payment.userId}`, details });
      return;
    }
    const purchase = { amountCents: payment.amountCents, coinsCredited: payment.coinsCredited ?? 0n };
    const due = {
      cash: smaller(BigInt(covered), paidMix(purchase.amountCents, purchase.coinsCredited).cash),
      bonus: bonusCoveredBy(purchase, payment.refundedCents + payment.disputedCents, covered),
    };
    const available = await userBalances(payment.userId, tx);
    const taken = { cash: smaller(available.cash, due.cash), bonus: smaller(available.bonus, due.bonus) };
    const missing = due.cash + due.bonus - taken.cash - taken.bonus;
    // The account's row before its ledger accounts: users before accounts, the order the draws take.
    if (missing > 0n) {
      await flagUser(tx, payment.userId, `${reversal.reason} of ${providerPaymentId}: ${missing} coins already spent`, now);
    } else if (chargedBack) {
      await flagUser(tx, payment.userId, chargedBack, now);
    }
    await keepTaken(taken);
    await tell({ ...taken, missing });
    if (taken.cash + taken.bonus > 0n) {
      await postTransaction(tx, {
        kind: "reversal",
        // Unique per reversal: a repeat is told apart by the payment's totals above, under its lock.
        reference: `reversal:${providerPaymentId}:${reversal.reason}:${refundedCents + disputedCents}:${randomUUID()}`,
        userId: payment.userId,
        memo: reversal.reason,
        postings: nonZero([
          { accountId: await userAccountId(tx, payment.userId), amount: -taken.cash },
          { accountId: await houseAccountId("card_deposits", tx), amount: taken.cash },
          { accountId: await userAccountId(tx, payment.userId, "user_bonus"), amount: -taken.bonus },
          { accountId: await houseAccountId("promotions", tx), amount: taken.bonus },
        ]),
      });
    }
    await recordAudit(tx, {
      actor: "provider",
      action: `payment.${reversal.reason}`,
      target: `user:${payment.userId}`,
      details: { ...details, reversedCash: taken.cash.toString(), reversedBonus: taken.bonus.toString(), missing: missing.toString() },
    });
  });
}

/**
 * A dispute closed in our favour (ADR 108): the charge stands and its money came back to us,
 * so the player gets back exactly the coins the dispute took, and the payment counts its
 * cents as charged again (a VIP purchase its days). The account stays flagged: a charge-back
 * is support's to clear. Once per dispute, whichever of its events comes first; a dispute
 * first heard of as won is recorded so, and its later events take nothing.
 */
export async function reinstateDispute(
  providerPaymentId: string,
  { disputeId, amountCents }: { disputeId: string; amountCents: number },
  now = new Date(),
  event?: { id: string; type: string },
) {
  await db().$transaction(async (tx) => {
    if (event && !(await payments.claimProviderEvent(tx, event.id, event.type))) return;
    const payment = await payments.lockPayment(tx, providerPaymentId);
    if (!payment) return;
    const dispute = await lockDispute(tx, disputeId);
    if (!dispute) {
      await claimDispute(tx, { disputeId, paymentId: payment.id, amountCents, eventId: event?.id, wonAt: now });
      return;
    }
    if (dispute.paymentId !== payment.id || dispute.wonAt) return;
    await markDisputeWon(tx, disputeId, now);
    const back = Math.min(dispute.coveredCents, payment.disputedCents);
    const wasWhole = payment.refundedCents + payment.disputedCents === payment.amountCents;
    const disputedCents = payment.disputedCents - back;
    const reopened = wasWhole && back > 0;
    await payments.updatePayment(tx, payment.id, { disputedCents, ...(reopened ? { status: "succeeded" } : {}) });
    if (reopened && payment.purpose === "vip") await payments.lengthenVip(tx, payment.userId, now, VIP_PERIOD_DAYS);
    const taken = dispute.taken ?? { cash: 0n, bonus: 0n };
    if (back > 0) {
      const moved: CoinsMoved = payment.purpose === "vip" ? { vipDays: reopened ? VIP_PERIOD_DAYS : 0 } : (dispute.taken ?? "unknown");
      await tellPlayerOfReversal(tx, `dispute-won:${disputeId}`, payment, { kind: "coins_given_back" }, back, moved);
    }
    if (!dispute.taken) {
      // Recorded before the coins taken were kept: support gives them back by hand.
      await flagUser(tx, payment.userId, `dispute ${disputeId} of ${providerPaymentId} won: the coins it took are not known`, now);
    }
    if (taken.cash + taken.bonus > 0n) {
      await postTransaction(tx, {
        kind: "reversal",
        reference: `reversal:${providerPaymentId}:dispute-won:${disputeId}`,
        userId: payment.userId,
        memo: "dispute_won",
        postings: nonZero([
          { accountId: await houseAccountId("card_deposits", tx), amount: -taken.cash },
          { accountId: await userAccountId(tx, payment.userId), amount: taken.cash },
          { accountId: await houseAccountId("promotions", tx), amount: -taken.bonus },
          { accountId: await userAccountId(tx, payment.userId, "user_bonus"), amount: taken.bonus },
        ]),
      });
    }
    await recordAudit(tx, {
      actor: "provider",
      action: "payment.dispute_won",
      target: `user:${payment.userId}`,
      details: {
        providerPaymentId,
        disputeId,
        reinstatedCents: back,
        disputedCents,
        returnedCash: taken.cash.toString(),
        returnedBonus: taken.bonus.toString(),
      },
    });
  });
}

/**
 * The money model's refunds and disputes (money-model-commands.ts): a refund or dispute takes
 * back what it covers; a dispute won (ADR 108) gives back exactly what it took, once.
 */
import { randomUUID } from "node:crypto";
import { reinstateDispute, reversePayment } from "~/services/money/payment-reversals.server";
import { VIP_PERIOD_DAYS } from "~/services/money/payments/pricing.server";
import { DAY, holderOf, least, pick, type Command, type Dispute, type Model } from "./money-model";

/** A refund or dispute of the whole payment or of half of what is left of it; `again`: another event of its last dispute (no change). */
export class Refund implements Command {
  constructor(
    readonly payment: number,
    readonly reason: "refund" | "dispute",
    readonly half: boolean,
    readonly again = false,
  ) {}
  check = (m: Readonly<Model>) => m.payments.length > 0;
  async run(m: Model) {
    const payment = pick(m.payments, this.payment);
    const p = holderOf(m, payment.userId);
    const open = payment.amountCents - payment.refundedCents - payment.disputedCents;
    const cents = this.half ? Math.floor(open / 2) : payment.amountCents;
    const repeat = this.reason === "dispute" && this.again && payment.lastDisputeId !== undefined;
    const disputeId = repeat ? payment.lastDisputeId! : `dp_${randomUUID().replaceAll("-", "")}`;
    await reversePayment(
      payment.id,
      this.reason === "refund" ? { reason: "refund", refundedCents: payment.refundedCents + cents } : { reason: "dispute", amountCents: cents, disputeId },
      m.now,
      { id: `evt_${randomUUID().replaceAll("-", "")}`, type: "payment_reversed" },
    );
    if (repeat) return;
    if (payment.status === "failed") return;
    // What the dispute takes is kept with it, for its win (DisputeWon): nothing until below.
    const dispute: Dispute = { id: disputeId, covered: 0, cash: 0n, bonus: 0n, won: false };
    if (this.reason === "dispute") {
      payment.lastDisputeId = disputeId;
      (payment.disputes ??= []).push(dispute);
    }
    const covered = Math.min(cents, open);
    // Covering more than is left of the payment (refunded to the card already, or disputed) flags the account.
    if (cents > open) p.flagged = true;
    if (covered <= 0) return;
    // A dispute (a charge-back) flags the account, whatever it covers.
    if (this.reason === "dispute") p.flagged = true;
    if (this.reason === "refund") payment.refundedCents += covered;
    else payment.disputedCents += dispute.covered = covered;
    const whole = payment.refundedCents + payment.disputedCents === payment.amountCents;
    if (whole) payment.status = this.reason === "refund" ? "refunded" : "disputed";
    if (payment.purpose === "vip") {
      if (whole && p.vipExpiry) p.vipExpiry = new Date(Math.max(m.now.getTime(), p.vipExpiry.getTime() - VIP_PERIOD_DAYS * DAY));
      return;
    }
    // The covered cents as cash, and the payment's bonus in proportion, as far as the player still has them.
    const bonusFor = (cents: number) => (payment.credited.bonus * BigInt(cents)) / BigInt(payment.amountCents);
    const before = payment.refundedCents + payment.disputedCents - covered;
    const cash = least(BigInt(covered), payment.credited.cash);
    const bonus = bonusFor(before + covered) - bonusFor(before);
    const takenCash = least(p.cash, cash);
    const takenBonus = least(p.bonus, bonus);
    p.cash -= takenCash;
    p.bonus -= takenBonus;
    [dispute.cash, dispute.bonus] = [takenCash, takenBonus];
    if (takenCash + takenBonus < cash + bonus) p.flagged = true;
  }
  toString = () => `${this.reason}(payment ${this.payment}${this.half ? ", half" : ""}${this.again ? ", again" : ""})`;
}

/**
 * A dispute closed in our favour: one of those heard of (won already or not), or with `fresh`
 * one never heard of before, of any payment, which takes nothing later.
 */
export class DisputeWon implements Command {
  constructor(
    readonly choice: number,
    readonly fresh: boolean,
  ) {}
  check = (m: Readonly<Model>) => (this.fresh ? m.payments.length > 0 : m.payments.some((p) => p.disputes?.length));
  async run(m: Model) {
    const event = { id: `evt_${randomUUID().replaceAll("-", "")}`, type: "dispute_won" };
    if (this.fresh) {
      const payment = pick(m.payments, this.choice);
      await reinstateDispute(payment.id, { disputeId: `dp_${randomUUID().replaceAll("-", "")}`, amountCents: payment.amountCents }, m.now, event);
      return;
    }
    const heard = m.payments.flatMap((payment) => (payment.disputes ?? []).map((dispute) => ({ payment, dispute })));
    const { payment, dispute } = pick(heard, this.choice);
    await reinstateDispute(payment.id, { disputeId: dispute.id, amountCents: dispute.covered }, m.now, event);
    if (dispute.won) return;
    dispute.won = true;
    const p = holderOf(m, payment.userId);
    const back = Math.min(dispute.covered, payment.disputedCents);
    const whole = payment.refundedCents + payment.disputedCents === payment.amountCents;
    payment.disputedCents -= back;
    if (whole && back > 0) {
      payment.status = "succeeded";
      if (payment.purpose === "vip") {
        const from = p.vipExpiry && p.vipExpiry > m.now ? p.vipExpiry : m.now;
        p.vipExpiry = new Date(from.getTime() + VIP_PERIOD_DAYS * DAY);
      }
    }
    p.cash += dispute.cash;
    p.bonus += dispute.bonus;
  }
  toString = () => `disputeWon(${this.fresh ? "a fresh dispute of payment" : "dispute"} ${this.choice})`;
}

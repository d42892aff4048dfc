/**
 * The money model's payout commands (money-model-commands.ts holds the rest): a player asks
 * for a withdrawal, admins approve (one or two of them), reject, or record the transfer,
 * and verify identities. Each predicts its outcome from the model, runs the real service,
 * and updates the model.
 */
import { expect } from "vitest";
import { approvePayout, rejectPayout, verifyIdentity } from "~/services/back-office/admin.server";
import { getEnv } from "~/infra/env.server";
import { coinsToDecimal } from "~/shared/money";
import { settleTransfer } from "~/services/money/transfers.server";
import { POLICY } from "~/shared/policy";
import { requestWithdrawal } from "~/services/money/withdrawals.server";
import { expectCode, holderOf, least, outcome, pick, type Command, type Leg, type Model, type Player, type Withdrawal } from "./money-model";

export class Withdraw implements Command {
  constructor(
    readonly player: number,
    readonly amount: bigint,
  ) {}
  check = () => true;
  async run(m: Model) {
    const p = pick(m.players, this.player);
    const result = await outcome(() =>
      requestWithdrawal(p.id, { amount: coinsToDecimal(this.amount), method: "venmo", fields: { username: "model-player" } }, m.now),
    );
    // Only cash is ever withdrawn.
    const expected = this.amount < BigInt(POLICY.minimumWithdrawalCoins) || this.amount > p.cash ? "withdrawal_invalid" : "ok";
    expectCode(result, expected, "withdrawal");
    if (!("value" in result)) return;
    // Thresholds count the player: what they asked for in the last 30 days, this one included.
    const since = m.now.getTime() - 30 * 86_400_000;
    const requested = m.withdrawals.filter((w) => w.userId === p.id && w.createdAt.getTime() >= since).reduce((sum, w) => sum + w.amount, this.amount);
    const requiresVerification = requested > BigInt(POLICY.identityCheckAboveCoins) && !p.verified;
    expect(result.value.requiresVerification).toBe(requiresVerification);
    // Money goes back the way it came: the player's card payments not yet refunded (or
    // claimed by a request not yet sent), newest first, then a transfer of the rest.
    const legs: Leg[] = [];
    let left = this.amount;
    for (const payment of [...m.payments].reverse()) {
      if (left === 0n) break;
      if (payment.userId !== p.id || payment.purpose !== "coins" || payment.status !== "succeeded") continue;
      const claimed = m.withdrawals.flatMap((w) => w.legs).filter((l) => l.paymentId === payment.id && l.status === "pending");
      const refundable = BigInt(payment.amountCents - payment.refundedCents - payment.disputedCents) - claimed.reduce((sum, l) => sum + l.amount, 0n);
      if (refundable <= 0n) continue;
      const part = least(refundable, left);
      legs.push({ kind: "card_refund", paymentId: payment.id, amount: part, status: "pending" });
      left -= part;
    }
    if (left > 0n) legs.push({ kind: "transfer", paymentId: null, amount: left, status: "pending" });
    expect(result.value.legs.map((l) => [l.kind, l.amount])).toEqual(legs.map((l) => [l.kind, coinsToDecimal(l.amount)]));
    p.cash -= this.amount;
    p.hold += this.amount;
    m.withdrawals.push({
      id: result.value.id,
      userId: p.id,
      amount: this.amount,
      status: "pending",
      requiresVerification,
      firstApprover: null,
      createdAt: m.now,
      decidedAt: null,
      legs,
    });
  }
  toString = () => `withdraw(p${this.player}, ${this.amount}c)`;
}

export class Approve implements Command {
  constructor(
    readonly admin: number,
    readonly withdrawal: number,
  ) {}
  check = (m: Readonly<Model>) => m.withdrawals.length > 0;
  async run(m: Model) {
    const w = pick(m.withdrawals, this.withdrawal);
    const admin = pick(m.admins, this.admin);
    const p = holderOf(m, w.userId);
    const result = await outcome(() => approvePayout(admin, w.id, m.now));
    // Two approvers once the player's payouts waiting, or approved in the last 24 hours, pass the amount.
    const since = m.now.getTime() - 86_400_000;
    const paying = m.withdrawals
      .filter((x) => x.userId === p.id)
      .filter((x) => x.status === "pending" || ((x.status === "processing" || x.status === "completed") && x.decidedAt!.getTime() >= since))
      .reduce((sum, x) => sum + x.amount, 0n);
    const twoApprovers = paying > BigInt(getEnv().PAYOUT_SECOND_APPROVAL_ABOVE_CENTS);
    const expected =
      w.status !== "pending"
        ? "withdrawal_decided"
        : p.flagged
          ? "payee_blocked"
          : w.requiresVerification && !p.verified
            ? "verification_required"
            : twoApprovers && w.firstApprover === admin
              ? "second_approver_required"
              : "ok";
    expectCode(result, expected, "approval");
    if (!("value" in result)) return;
    if (twoApprovers && !w.firstApprover) {
      expect(result.value).toEqual({ status: "awaiting_second_approval" });
      w.firstApprover = admin;
      return;
    }
    w.decidedAt = m.now;
    // Sent at once: each refund to a card goes through (the demo provider's refunds do)
    // unless a refund or dispute since the request left too little of its payment; the
    // transfer waits for its reference.
    for (const leg of w.legs) {
      if (leg.kind === "transfer") {
        leg.status = "processing";
        continue;
      }
      const payment = m.payments.find((x) => x.id === leg.paymentId)!;
      const before = payment.refundedCents + payment.disputedCents;
      if (BigInt(payment.amountCents - before) >= leg.amount) {
        // The bonus that came with that much of the purchase goes back too, as far as the
        // player has it; what they played already flags the account (ADR 051).
        const bonusFor = (cents: number) => (payment.credited.bonus * BigInt(cents)) / BigInt(payment.amountCents);
        const bonus = bonusFor(before + Number(leg.amount)) - bonusFor(before);
        if (p.bonus < bonus) p.flagged = true;
        p.bonus -= least(p.bonus, bonus);
        payment.refundedCents += Number(leg.amount);
        settleLeg(p, leg, "completed");
      } else {
        settleLeg(p, leg, "failed");
      }
    }
    w.status = stateOf(w);
    expect(result.value).toEqual({ status: w.status });
  }
  toString = () => `approve(admin${this.admin % 2}, w${this.withdrawal})`;
}

export class Reject implements Command {
  constructor(
    readonly admin: number,
    readonly withdrawal: number,
  ) {}
  check = (m: Readonly<Model>) => m.withdrawals.length > 0;
  async run(m: Model) {
    const w = pick(m.withdrawals, this.withdrawal);
    const p = holderOf(m, w.userId);
    const result = await outcome(() => rejectPayout(pick(m.admins, this.admin), w.id, "Model review", m.now));
    expectCode(result, w.status === "pending" ? "ok" : "withdrawal_decided", "rejection");
    if (w.status !== "pending") return;
    w.status = "rejected";
    p.hold -= w.amount;
    p.cash += w.amount;
    for (const leg of w.legs) leg.status = "failed";
  }
  toString = () => `reject(w${this.withdrawal})`;
}

function settleLeg(p: Player, leg: Leg, status: "completed" | "failed") {
  leg.status = status;
  p.hold -= leg.amount;
  if (status === "failed") p.cash += leg.amount;
}

function stateOf(w: Withdrawal): Withdrawal["status"] {
  if (w.legs.every((l) => l.status === "completed")) return "completed";
  if (w.legs.every((l) => l.status === "completed" || l.status === "failed")) return "failed";
  return "processing";
}

/** An admin records the transfer of an approved payout: sent (with its reference), or failed. */
export class RecordTransfer implements Command {
  constructor(
    readonly admin: number,
    readonly withdrawal: number,
    readonly failed: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.withdrawals.length > 0;
  async run(m: Model) {
    const w = pick(m.withdrawals, this.withdrawal);
    const p = holderOf(m, w.userId);
    const reference = `REF-${w.id.slice(0, 8)}-${m.now.getTime()}`;
    const result = await outcome(() => settleTransfer(pick(m.admins, this.admin), w.id, this.failed ? { failure: "Bank returned it" } : { reference }));
    const transfer = w.legs.find((l) => l.kind === "transfer");
    const expected = transfer?.status !== "processing" ? "withdrawal_decided" : !this.failed && p.flagged ? "payee_blocked" : "ok";
    expectCode(result, expected, "transfer record");
    if (!("value" in result) || !transfer) return;
    settleLeg(p, transfer, this.failed ? "failed" : "completed");
    w.status = stateOf(w);
    expect(result.value).toEqual({ status: w.status });
  }
  toString = () => `recordTransfer(admin${this.admin % 2}, w${this.withdrawal}${this.failed ? ", failed" : ""})`;
}

export class VerifyIdentity implements Command {
  constructor(readonly player: number) {}
  check = () => true;
  async run(m: Model) {
    const p = pick(m.players, this.player);
    await verifyIdentity(m.admins[0]!, p.id, "passport seen by support", m.now);
    p.verified = true;
  }
  toString = () => `verifyIdentity(p${this.player})`;
}

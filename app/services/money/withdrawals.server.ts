import { randomUUID } from "node:crypto";
import { recordAudit } from "~/models/back-office/audit-event.server";
import { db } from "~/models/db.server";
import { InsufficientBalance, postTransaction, userAccountId, userBalances } from "~/models/money/ledger.server";
import { insertLegs } from "~/models/money/payout-leg.server";
import { lockUser, userStanding } from "~/models/accounts/user.server";
import * as withdrawals from "~/models/money/withdrawal.server";
import { encrypt } from "~/infra/crypto-box.server";
import { isEmailVerified } from "../accounts/email-tokens.server";
import { queueMail } from "~/infra/mail/outbox.server";
import { DomainError } from "~/shared/domain-error";
import { coinsToDecimal } from "~/shared/money";
import { longUtcDate } from "~/shared/dates";
import { paymentProvider } from "~/infra/payment-providers/current-provider.server";
import { planLegs, refundableNow } from "./payouts.server";
import { POLICY } from "~/shared/policy";
import { previewWithdrawal } from "~/shared/withdrawal-preview";
import {
  insufficientCash,
  METHOD_LABELS,
  validateWithdrawal,
  type ValidWithdrawal,
  type WithdrawalInput,
  type WithdrawalProblem,
} from "~/shared/withdrawal-rules";

/**
 * Cashing out. The amount is held (player → withdrawal hold) in the same transaction
 * that records the request, so concurrent requests can never hold more than the balance.
 * Card numbers become the payout provider's token (last four digits and expiry kept);
 * wallet and bank details are stored encrypted; a CVV is never accepted.
 */
export class WithdrawalRefused extends DomainError {
  constructor(readonly problem: WithdrawalProblem) {
    super("withdrawal_invalid", problem.description);
  }
}

/** Identity verification counts what the player asked to withdraw over this window, this request included. */
export const IDENTITY_WINDOW_MS = 30 * 86_400_000;

const mask = (value: string, keep = 4) => `••••${value.slice(-keep)}`;

/** Before a first withdrawal the player proves the address is theirs. */
export const EMAIL_NOT_VERIFIED = {
  title: "Verify Your Email",
  description: "Please verify your email address before your first withdrawal: use the link or the code we sent you, or send a new one from the withdraw page.",
};

/** What a withdrawal with no method shows as its destination ("… to your cards"). */
export const CARDS_ONLY = "your cards";

/** The part of a withdrawal that goes to a method when the request was made without one. */
const methodNeeded = (coins: bigint): WithdrawalProblem => ({
  title: "Missing Information",
  description: `$${coinsToDecimal(coins)} of this withdrawal goes to the method you choose: choose one and fill in its fields`,
  field: "method",
});

async function destinationOf(value: ValidWithdrawal) {
  const { method, fields } = value;
  if (method === null) return { destinationMasked: CARDS_ONLY };
  if (method === "debit_card") {
    const digits = (fields.cardNumber ?? "").replace(/[\s-]/g, "");
    const expiry = /^(\d{2})\/(\d{2})$/.exec(fields.expiry ?? "");
    if (!/^\d{12,19}$/.test(digits) || !expiry || Number(expiry[1]) < 1 || Number(expiry[1]) > 12) {
      const field = /^\d{12,19}$/.test(digits) ? "debit_card.expiry" : "debit_card.cardNumber";
      throw new WithdrawalRefused({ title: "Missing Information", description: "Please fill in all required fields", field });
    }
    const token = await paymentProvider().tokenizePayoutCard({
      number: digits,
      expMonth: Number(expiry[1]),
      expYear: 2000 + Number(expiry[2]),
    });
    const last4 = digits.slice(-4);
    return { destinationMasked: `Card ${mask(digits)} (${fields.expiry})`, cardToken: token, cardLast4: last4, cardExpiry: fields.expiry };
  }
  if (method === "bank") {
    return {
      destinationMasked: `Bank ${mask(fields.accountNumber!)}`,
      destinationEncrypted: encrypt(JSON.stringify({ routingNumber: fields.routingNumber, accountNumber: fields.accountNumber })),
    };
  }
  return {
    destinationMasked: `${METHOD_LABELS[method]} ${mask(fields.username!, 2)}`,
    destinationEncrypted: encrypt(JSON.stringify({ username: fields.username })),
  };
}

/**
 * Holds the amount and plans how it will be paid: refunds of the player's card
 * payments of the last 180 days not yet refunded, newest first, then a transfer of the
 * rest to the chosen method. The plan is made after the hold, whose lock on the player's
 * cash account keeps two requests from claiming the same payment's cents.
 */
export async function requestWithdrawal(userId: string, input: WithdrawalInput, now = new Date()) {
  const [{ cash }, { purchases, bonusBalance }] = await Promise.all([userBalances(userId), withdrawalPreview(userId, now)]);
  // Whether a method is needed is the server's own split, never the client's.
  const checked = validateWithdrawal(input, cash, (coins) => previewWithdrawal(purchases, coins, BigInt(bonusBalance)).method);
  if (!checked.ok) throw new WithdrawalRefused(checked.problem);
  // Checked before the card is tokenized; a verified address stays verified.
  if (!(await isEmailVerified(userId))) throw new WithdrawalRefused(EMAIL_NOT_VERIFIED);
  const destination = await destinationOf(checked.value);
  const id = randomUUID();
  const amount = checked.value.amountCoins;
  return db().$transaction(async (tx) => {
    // The player's row first (before their accounts, the order the draws take): parallel
    // requests queue here, so each counts the ones before it (PRODUCT.md "Thresholds count the player").
    if (!(await lockUser(tx, userId))) throw new DomainError("user_not_found", "Player not found");
    const user = await userStanding(tx, userId);
    if (!user) throw new DomainError("user_not_found", "Player not found");
    const requested = (await withdrawals.requestedSince(tx, userId, new Date(now.getTime() - IDENTITY_WINDOW_MS))) + amount;
    const requiresVerification = requested > BigInt(POLICY.identityCheckAboveCoins) && user.identityVerifiedAt === null;
    // Dated by the same clock as the window that counts it.
    await withdrawals.insertWithdrawal(tx, { id, userId, amount, method: checked.value.method, requiresVerification, createdAt: now, ...destination });
    try {
      await postTransaction(tx, {
        kind: "withdrawal_hold",
        reference: `withdrawal-hold:${id}`,
        userId,
        postings: [
          { accountId: await userAccountId(tx, userId), amount: -amount },
          { accountId: await userAccountId(tx, userId, "withdrawal_hold"), amount },
        ],
      });
    } catch (error) {
      // Another request spent the cash since it was checked.
      if (error instanceof InsufficientBalance) throw new WithdrawalRefused(insufficientCash((await userBalances(userId, tx)).cash));
      throw error;
    }
    const planned = await planLegs(tx, userId, amount, now);
    // A parallel request claimed the card payments this one counted on: the rest needs a method.
    const transfer = planned.find((leg) => leg.kind === "transfer");
    if (transfer && checked.value.method === null) throw new WithdrawalRefused(methodNeeded(transfer.amount));
    await insertLegs(tx, id, planned);
    const legs = planned.map((leg) => legView({ ...leg, paidAt: leg.paidAt ?? null }, destination.destinationMasked));
    await recordAudit(tx, {
      actor: userId,
      action: "withdrawal.request",
      target: `withdrawal:${id}`,
      details: { amount: amount.toString(), method: checked.value.method, destination: destination.destinationMasked, requiresVerification, legs },
    });
    await queueMail(tx, {
      key: `withdrawal-requested:${id}`,
      kind: "withdrawal_requested",
      userId,
      data: { amount: coinsToDecimal(amount), destination: destination.destinationMasked },
    });
    return { id, amount: coinsToDecimal(amount), requiresVerification, legs };
  });
}

/** A leg as the player reads it: how much, and where it goes. */
function legView(leg: { kind: "card_refund" | "transfer"; amount: bigint; paidAt: Date | null }, destination: string) {
  return {
    kind: leg.kind,
    amount: coinsToDecimal(leg.amount),
    to: leg.kind === "card_refund" ? `Back to the card you paid with on ${leg.paidAt ? longUtcDate(leg.paidAt) : "an earlier day"}` : destination,
  };
}

/**
 * What the withdraw page shows before a request: the player's withdrawable cash, and how
 * much of a withdrawal would go back to their cards (the rest goes to the method they choose).
 */
export async function withdrawalPreview(userId: string, now = new Date()) {
  const [{ refundableCoins, payments }, { bonus }] = await Promise.all([refundableNow(userId, now), userBalances(userId)]);
  const purchases = payments.map((p) => ({ amountCents: p.amountCents, refundableCents: p.refundableCents, coinsCredited: p.coinsCredited.toString() }));
  return {
    backToCards: coinsToDecimal(refundableCoins),
    /** The bonus coins a withdrawal of everything refundable would take back. */
    bonusBackAll: Number(previewWithdrawal(purchases, refundableCoins, bonus).bonusBack),
    purchases,
    bonusBalance: Number(bonus),
  };
}

/** The preview of one amount (the API's): to the cards, to the method, and the bonus coins taken back. */
export async function previewAmount(userId: string, amountCoins: bigint, now = new Date()) {
  const { purchases, bonusBalance } = await withdrawalPreview(userId, now);
  const split = previewWithdrawal(purchases, amountCoins, BigInt(bonusBalance));
  return {
    amount: coinsToDecimal(amountCoins),
    backToCards: coinsToDecimal(split.cards),
    toMethod: coinsToDecimal(split.method),
    bonusTakenBack: Number(split.bonusBack),
  };
}

/** The spec's four statuses: approved shows as processing, rejected as failed. */
const PLAYER_STATUS = {
  pending: "pending",
  approved: "processing",
  processing: "processing",
  completed: "completed",
  rejected: "failed",
  failed: "failed",
} as const;

/** What the player sees: each request's state, the reason it failed, and its legs with theirs. */
export async function listWithdrawals(userId: string) {
  return (await withdrawals.listUserWithdrawals(userId)).map((w) => ({
    id: w.id,
    amount: coinsToDecimal(w.amount),
    method: w.method,
    // Named by where the money goes: the chosen method only when a part goes to it.
    destination: w.legs.length > 0 && w.legs.every((leg) => leg.kind === "card_refund") ? "Back to your cards" : w.destinationMasked,
    status: PLAYER_STATUS[w.status],
    reason: w.failureReason,
    legs: w.legs.map((leg) => ({
      ...legView({ kind: leg.kind, amount: leg.amount, paidAt: leg.payment?.createdAt ?? null }, w.destinationMasked),
      status: leg.status,
      reason: leg.failureReason,
    })),
    createdAt: w.createdAt.toISOString(),
  }));
}

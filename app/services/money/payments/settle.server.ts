import type { VipTier } from "~/generated/prisma/client";
import { recordAudit } from "~/models/back-office/audit-event.server";
import { db } from "~/models/db.server";
import { houseAccountId, nonZero, postTransaction, userAccountId, userBalance } from "~/models/money/ledger.server";
import * as payments from "~/models/money/payment.server";
import { flagUser } from "~/models/accounts/user.server";
import { paidMix } from "~/shared/coin-mix";
import { DomainError } from "~/shared/domain-error";
import { getLogger } from "~/infra/logger.server";
import { queueReceipt } from "../mail-notices.server";
import { activeVipTier, higherVipTier, VIP_PERIOD_DAYS, VIP_TIERS } from "~/shared/vip";
import { paymentProvider } from "~/infra/payment-providers/current-provider.server";
import { priceCoins } from "./pricing.server";
import type { ProviderPayment } from "~/infra/payment-providers/provider";
import { rulesFor } from "~/shared/jurisdictions";

/**
 * Settling a card payment: a payment is credited exactly once, whichever of the confirm
 * call, the webhook or a retry gets there first (row lock on the payment plus the
 * ledger's unique reference).
 */
const UNFINISHED_MESSAGE = "This payment was canceled before it was paid; nothing was charged.";

export type Settlement =
  | { status: "succeeded"; purpose: "coins"; coins: bigint; product: string }
  | { status: "succeeded"; purpose: "vip"; tier: string; vipExpiry: Date | null }
  /** `stillPayable`: declined, but another card may still pay it; the payment stays pending. */
  | { status: "failed"; message: string; stillPayable?: true }
  /** `processing`: the provider is taking the money; it can no longer be canceled, only succeed or fail. */
  | { status: "pending"; processing?: true };

/** Whether the payment is still pending after this settlement: the provider may still take it. */
export const isOpen = (settlement: Settlement) => settlement.status === "pending" || (settlement.status === "failed" && settlement.stillPayable === true);

/**
 * Settles a payment from what the provider says about it. Idempotent: the first caller
 * credits, every later one (webhook retries, the confirm call racing the webhook) gets
 * the same answer and changes nothing.
 */
export async function settlePayment(providerPaymentId: string, now = new Date()): Promise<Settlement> {
  let remote = await paymentProvider().getPayment(providerPaymentId);
  let refusal: string | undefined;
  if (remote.status === "authorized") ({ remote, refusal } = await captureOrRefuse(providerPaymentId, remote));
  return db().$transaction(async (tx) => {
    const payment = await payments.lockPayment(tx, providerPaymentId);
    if (!payment) throw new DomainError("payment_not_found", "Payment not found");
    if (payment.status === "succeeded") return describeSucceeded(payment);
    if (payment.status === "failed" && remote.status === "succeeded") {
      // Charged after we gave it up (a payment failed on a decline before declines stayed
      // open, or a mismatched amount): never credited by itself. Support must look at it.
      getLogger().error({ providerPaymentId }, "a payment marked failed was charged; the account is flagged for support");
      await flagUser(tx, payment.userId, `payment ${providerPaymentId} was charged after it was marked failed`, now);
      return { status: "failed", message: "Please contact support if coins were not added." };
    }
    if (payment.status !== "pending") return { status: "failed", message: "This payment did not go through." };
    if (refusal) {
      await payments.updatePayment(tx, payment.id, { status: "failed", failureMessage: refusal, settledAt: now });
      await recordAudit(tx, { actor: "provider", action: "payment.credit_card_refused", target: `user:${payment.userId}`, details: { providerPaymentId } });
      return { status: "failed", message: refusal };
    }
    if (remote.status === "failed" || remote.status === "canceled") {
      const message = remote.status === "canceled" ? UNFINISHED_MESSAGE : (remote.failureMessage ?? "Your card was declined.");
      await payments.updatePayment(tx, payment.id, { status: "failed", failureMessage: message, settledAt: now });
      return { status: "failed", message };
    }
    // Declined, but still open at the provider: another card may pay it (credited then),
    // and the sweep cancels it if it is left unpaid. It stays pending, holding its amount.
    if (remote.status === "requires_payment" && remote.failureMessage) return { status: "failed", message: remote.failureMessage, stillPayable: true };
    if (remote.status === "processing") return { status: "pending", processing: true };
    if (remote.status !== "succeeded") return { status: "pending" };
    // A payment in another currency than the price's is never credited: support looks at it.
    if (remote.currency.toLowerCase() !== payment.currency.toLowerCase()) {
      getLogger().error({ providerPaymentId, currency: remote.currency }, "payment in another currency than its price; not credited");
      await payments.updatePayment(tx, payment.id, { status: "failed", failureMessage: "Currency mismatch", settledAt: now });
      await flagUser(tx, payment.userId, `payment ${providerPaymentId} was made in ${remote.currency}, not ${payment.currency}: not credited`, now);
      return { status: "failed", message: "Please contact support if coins were not added." };
    }
    if (remote.amountCents !== payment.amountCents || remote.metadata.userId !== payment.userId) {
      getLogger().error({ providerPaymentId }, "payment does not match what we priced; not credited");
      await payments.updatePayment(tx, payment.id, { status: "failed", failureMessage: "Amount mismatch", settledAt: now });
      return { status: "failed", message: "Please contact support if coins were not added." };
    }
    if (payment.purpose === "coins") {
      const pkg = priceCoins(payment.product);
      if (!pkg || pkg.purpose !== "coins") throw new Error(`unknown package ${payment.product}`);
      const user = await payments.vipOf(tx, payment.userId);
      const tier = activeVipTier(user, now);
      const vipBonus = tier ? (pkg.coins * BigInt(VIP_TIERS[tier].bonusPercent)) / 100n : 0n;
      const { cash, bonus } = paidMix(payment.amountCents, pkg.coins + vipBonus);
      await postTransaction(tx, {
        kind: "deposit",
        reference: `deposit:${providerPaymentId}`,
        userId: payment.userId,
        memo: pkg.description,
        postings: nonZero([
          { accountId: await houseAccountId("card_deposits", tx), amount: -cash },
          { accountId: await userAccountId(tx, payment.userId), amount: cash },
          { accountId: await houseAccountId("promotions", tx), amount: -bonus },
          { accountId: await userAccountId(tx, payment.userId, "user_bonus"), amount: bonus },
        ]),
      });
      await payments.updatePayment(tx, payment.id, { status: "succeeded", coinsCredited: cash + bonus, settledAt: now });
      await queueReceipt(tx, payment, `${cash + bonus} coins (${cash} cash, ${bonus} bonus)`, now);
      await recordAudit(tx, {
        actor: "provider",
        action: "payment.credit",
        target: `user:${payment.userId}`,
        details: { providerPaymentId, amountCents: payment.amountCents, coins: (cash + bonus).toString(), cash: cash.toString(), bonus: bonus.toString() },
      });
      return { status: "succeeded", purpose: "coins", coins: cash + bonus, product: payment.product };
    }
    // Started before a higher tier was bought (two purchases at once): it extends the
    // membership without lowering the tier; starting one that would is refused.
    const current = await payments.vipOf(tx, payment.userId);
    const held = activeVipTier(current, now);
    const tier = held ? higherVipTier(held, payment.product as VipTier) : (payment.product as VipTier);
    const vipExpiry = await payments.extendVip(tx, payment.userId, current, tier, providerPaymentId, now, VIP_PERIOD_DAYS);
    await payments.updatePayment(tx, payment.id, { status: "succeeded", settledAt: now });
    await queueReceipt(tx, payment, `VIP ${tier.toUpperCase()}, ${VIP_PERIOD_DAYS} days`, now);
    await recordAudit(tx, {
      actor: "provider",
      action: "payment.vip",
      target: `user:${payment.userId}`,
      details: { providerPaymentId, tier: payment.product, ...(tier !== payment.product ? { tierKept: tier } : {}), vipExpiry: vipExpiry.toISOString() },
    });
    return { status: "succeeded", purpose: "vip", tier, vipExpiry };
  });
}

export const CREDIT_CARD_REFUSED = "Credit cards cannot be used to pay for gambling where you live. Nothing was charged: please pay with a debit card.";

/**
 * An authorised card payment: captured, unless the card is a credit card where the payer's
 * jurisdiction bans them for gambling (GB), or the payment is no longer one we would credit;
 * then the authorisation is released and nothing is charged (ADR 080).
 */
async function captureOrRefuse(providerPaymentId: string, remote: ProviderPayment): Promise<{ remote: ProviderPayment; refusal?: string }> {
  const provider = paymentProvider();
  const owner = await payments.paymentOwnerOf(providerPaymentId);
  if (!owner) return { remote };
  if (owner.status !== "pending") return { remote: await provider.cancelPayment(providerPaymentId) };
  if (remote.cardFunding === "credit" && rulesFor(owner.country).creditCardsBanned) {
    return { remote: await provider.cancelPayment(providerPaymentId), refusal: CREDIT_CARD_REFUSED };
  }
  return { remote: await provider.capturePayment(providerPaymentId) };
}

async function describeSucceeded(payment: payments.LockedPayment): Promise<Settlement> {
  if (payment.purpose === "coins") return { status: "succeeded", purpose: "coins", coins: payment.coinsCredited ?? 0n, product: payment.product };
  const user = await payments.vipOf(db(), payment.userId);
  return { status: "succeeded", purpose: "vip", tier: payment.product, vipExpiry: user.vipExpiry };
}

/** The confirm call from the browser: only the player's own payment, settled from the provider's record. */
export async function confirmPayment(userId: string, providerPaymentId: string, now = new Date()) {
  const own = await payments.findPaymentOfUser(providerPaymentId, userId);
  if (!own) throw new DomainError("payment_not_found", "Payment not found");
  const settlement = await settlePayment(providerPaymentId, now);
  return { settlement, coinBalance: await userBalance(userId) };
}

/**
 * A hosted checkout came back (or its webhook arrived): bind the payment id, then settle.
 * Only a session we started is looked up at the provider (and, on the player's return,
 * only their own).
 */
export async function settleHostedCheckout(sessionId: string, { userId, now = new Date() }: { userId?: string; now?: Date } = {}): Promise<Settlement> {
  const provider = paymentProvider();
  const ours = await payments.findPaymentBySession(sessionId);
  if (!provider.getHostedCheckout || !ours || (userId !== undefined && ours.userId !== userId)) {
    throw new DomainError("payment_not_found", "Payment not found");
  }
  const session = await provider.getHostedCheckout(sessionId);
  if (!session.paymentId) {
    if (!session.expired) return { status: "pending" };
    // Expired unpaid: nothing can be paid through it any more.
    await payments.failUnpaidCheckout(sessionId, UNFINISHED_MESSAGE, now);
    return { status: "failed", message: UNFINISHED_MESSAGE };
  }
  await db().$transaction((tx) => payments.setProviderPaymentId(tx, sessionId, session.paymentId!));
  return settlePayment(session.paymentId, now);
}

/** Settles from the provider's record: a hosted checkout not yet paid through its session, anything else by its payment. */
export function settleFromProvider(payment: payments.UnfinishedPayment, now: Date): Promise<Settlement> {
  return payment.checkoutSessionId && payment.providerPaymentId.startsWith("cs_pending:")
    ? settleHostedCheckout(payment.checkoutSessionId, { now })
    : settlePayment(payment.providerPaymentId, now);
}

/**
 * Makes an unfinished payment impossible to pay, then settles it from what it became:
 * canceled fails it, paid meanwhile credits it, processing (too late) stays pending. A
 * hosted checkout is expired as a whole: Stripe cancels its payment with it.
 */
export async function cancelUnfinished(payment: payments.UnfinishedPayment, now: Date): Promise<Settlement> {
  const provider = paymentProvider();
  if (payment.checkoutSessionId) await provider.expireHostedCheckout?.(payment.checkoutSessionId);
  // A card given meanwhile (authorised, not yet captured) is paid, not canceled: settling captures it (or refuses a banned credit card).
  else if ((await provider.getPayment(payment.providerPaymentId)).status === "authorized") return settlePayment(payment.providerPaymentId, now);
  else await provider.cancelPayment(payment.providerPaymentId);
  return settleFromProvider(payment, now);
}

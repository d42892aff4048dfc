import type { VipTier } from "~/generated/prisma/client";
import { recordAudit } from "~/models/audit.server";
import { db } from "~/models/db.server";
import { houseAccountId, nonZero, postTransaction, userAccountId, userBalance } from "~/models/ledger.server";
import * as payments from "~/models/payment.server";
import { paidMix } from "./coin-mix";
import { findCoinPackage } from "./coin-packages";
import { reserveDeposit, type DepositToReserve } from "./deposit-limits.server";
import { checkDeposit } from "./responsible-play.server";
import { DomainError } from "./domain-error";
import { getLogger } from "./logger.server";
import type { PaymentProvider, ProviderEvent } from "./payments/provider";
import { paymentProvider } from "./payments/current-provider.server";
import { refreshRefund, settleOpenPayouts } from "./payouts.server";
import { activeVipTier, higherVipTier, VIP_PERIOD_DAYS, VIP_TIERS, type VipTierName } from "./vip";
import { reversePayment } from "./payment-reversals.server";
import { queueReceipt } from "./mail-notices.server";

/**
 * Buying coins and VIP by card. Prices and coins are decided here from the product,
 * never from what the client sends; a payment is credited exactly once, whichever of
 * the confirm call, the webhook or a retry gets there first (row lock on the payment
 * plus the ledger's unique reference).
 */
/** A VIP purchase buys this many days (app/services/vip.ts); re-exported for the payment paths' callers. */
export { VIP_PERIOD_DAYS };


export type Product =
  | { purpose: "coins"; product: string; amountCents: number; coins: bigint; description: string }
  | { purpose: "vip"; product: VipTierName; amountCents: number; description: string };

export function priceCoins(packageId: string | null | undefined): Product | undefined {
  const pkg = findCoinPackage(packageId);
  return pkg && { purpose: "coins", product: pkg.id, amountCents: pkg.priceCents, coins: BigInt(pkg.coins), description: `${pkg.coins} coins` };
}

export function priceVip(tier: string | null | undefined): Product | undefined {
  if (!tier || !Object.hasOwn(VIP_TIERS, tier)) return undefined;
  const name = tier as VipTierName;
  return { purpose: "vip", product: name, amountCents: VIP_TIERS[name].priceCents, description: `VIP ${name.toUpperCase()} — 30 days` };
}

export class PaymentFailed extends Error {
  name = "PaymentFailed";
}

const depositOf = (provider: PaymentProvider, product: Product): DepositToReserve => ({
  provider: provider.name,
  purpose: product.purpose,
  product: product.product,
  amountCents: product.amountCents,
});
/** What the provider keeps with the payment, to tell whose it is and what it buys. */
const metadataOf = (userId: string, product: Product) => ({ userId, purpose: product.purpose, product: product.product });

/**
 * Calls the provider for a reserved payment and gives the reservation the provider's ids.
 * When the provider cannot be reached the reservation is given up: it holds nothing.
 */
async function startReserved<T>(reservationId: string, now: Date, call: () => Promise<T>, ids: (started: T) => { providerPaymentId: string; checkoutSessionId?: string }): Promise<T> {
  let started: T;
  try {
    started = await call();
  } catch (error) {
    await payments.abandonReservations({ id: reservationId }, "The payment service did not start this payment.", now);
    throw error;
  }
  await payments.attachProviderPayment(reservationId, ids(started));
  return started;
}

/**
 * Starts a card payment for the signed-in player: the deposit-limit check and the
 * payment's reservation come before the provider is called.
 */
export async function startPayment(userId: string, product: Product, now = new Date()) {
  const provider = paymentProvider();
  const reservationId = await reserveMakingRoom(userId, depositOf(provider, product), now);
  const created = await startReserved(
    reservationId,
    now,
    () =>
      provider.createPayment({
        amountCents: product.amountCents,
        description: product.description,
        metadata: metadataOf(userId, product),
        idempotencyKey: `payment:${reservationId}`,
      }),
    (payment) => ({ providerPaymentId: payment.id }),
  );
  return { paymentId: created.id, clientSecret: created.clientSecret };
}

/** Starts a hosted checkout (no JavaScript); returns the provider's page to redirect to. */
export async function startHostedCheckout(userId: string, product: Product, origin: string, now = new Date()) {
  const provider = paymentProvider();
  const createHostedCheckout = provider.createHostedCheckout?.bind(provider);
  if (!createHostedCheckout) return undefined;
  const reservationId = await reserveMakingRoom(userId, depositOf(provider, product), now);
  const back = product.purpose === "vip" ? `/vip/checkout?tier=${product.product}` : `/checkout?package=${product.product}`;
  const session = await startReserved(
    reservationId,
    now,
    () =>
      createHostedCheckout({
        amountCents: product.amountCents,
        description: product.description,
        metadata: metadataOf(userId, product),
        successUrl: `${origin}/checkout-success?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${origin}${back}`,
        idempotencyKey: `checkout:${reservationId}`,
      }),
    (checkout) => ({ providerPaymentId: `cs_pending:${checkout.id}`, checkoutSessionId: checkout.id }),
  );
  return session.url;
}

export type Settlement =
  | { status: "succeeded"; purpose: "coins"; coins: bigint; product: string }
  | { status: "succeeded"; purpose: "vip"; tier: string; vipExpiry: Date | null }
  /** `stillPayable`: declined, but another card may still pay it; the payment stays pending. */
  | { status: "failed"; message: string; stillPayable?: true }
  /** `processing`: the provider is taking the money; it can no longer be canceled, only succeed or fail. */
  | { status: "pending"; processing?: true };

/** Whether the payment is still pending after this settlement: the provider may still take it. */
const isOpen = (settlement: Settlement) => settlement.status === "pending" || (settlement.status === "failed" && settlement.stillPayable === true);

/**
 * Settles a payment from what the provider says about it. Idempotent: the first caller
 * credits, every later one (webhook retries, the confirm call racing the webhook) gets
 * the same answer and changes nothing.
 */
export async function settlePayment(providerPaymentId: string, now = new Date()): Promise<Settlement> {
  const remote = await paymentProvider().getPayment(providerPaymentId);
  return db().$transaction(async (tx) => {
    const payment = await payments.lockPayment(tx, providerPaymentId);
    if (!payment) throw new DomainError("payment_not_found", "Payment not found");
    if (payment.status === "succeeded") return describeSucceeded(payment);
    if (payment.status === "failed" && remote.status === "succeeded") {
      // Charged after we gave it up (a payment failed on a decline before declines stayed
      // open, or a mismatched amount): never credited by itself. Support must look at it.
      getLogger().error({ providerPaymentId }, "a payment marked failed was charged; the account is flagged for support");
      await payments.flagUser(tx, payment.userId, `payment ${providerPaymentId} was charged after it was marked failed`, now);
      return { status: "failed", message: "Please contact support if coins were not added." };
    }
    if (payment.status !== "pending") return { status: "failed", message: "This payment did not go through." };
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
      await payments.flagUser(tx, payment.userId, `payment ${providerPaymentId} was made in ${remote.currency}, not ${payment.currency}: not credited`, now);
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
      const user = await tx.user.findUniqueOrThrow({ where: { id: payment.userId }, select: { vipTier: true, vipExpiry: true } });
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

async function describeSucceeded(payment: payments.LockedPayment): Promise<Settlement> {
  if (payment.purpose === "coins") return { status: "succeeded", purpose: "coins", coins: payment.coinsCredited ?? 0n, product: payment.product };
  const user = await db().user.findUniqueOrThrow({ where: { id: payment.userId }, select: { vipExpiry: true } });
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

/** A verified provider event; unknown payments and unknown event types are acknowledged and ignored. */
export async function handleProviderEvent(event: ProviderEvent): Promise<void> {
  const known = async (paymentId: string) => (await db().payment.count({ where: { providerPaymentId: paymentId } })) > 0;
  switch (event.kind) {
    case "payment_succeeded":
    case "payment_failed":
      if (await known(event.paymentId)) await settlePayment(event.paymentId);
      return;
    case "checkout_completed":
      if (await payments.findPaymentBySession(event.sessionId)) await settleHostedCheckout(event.sessionId);
      return;
    case "payment_reversed":
      await reversePayment(event.paymentId, event.reversal);
      return;
    case "refund_updated":
      // A refund this site sent as part of a withdrawal (others are not ours: ignored).
      await refreshRefund(event.refundId);
      return;
    case "ignored":
      return;
  }
}

/** A payment still pending this long is asked about again. */
export const STALE_PAYMENT_MS = 2 * 60 * 1000;
/**
 * A payment still unpaid this long after it started (a card form or checkout page left
 * open) is canceled at the provider, so that it stops holding the player's deposit limits
 * (docs/decisions/008-responsible-play.md).
 */
export const UNFINISHED_PAYMENT_MS = 30 * 60 * 1000;
const UNFINISHED_MESSAGE = "This payment was canceled before it was paid; nothing was charged.";
/** A reservation the provider never named this long after it was made is given up (the provider client gives up within a minute). */
export const ABANDONED_RESERVATION_MS = 10 * 60 * 1000;

/** Settles from the provider's record: a hosted checkout not yet paid through its session, anything else by its payment. */
function settleFromProvider(payment: payments.UnfinishedPayment, now: Date): Promise<Settlement> {
  return payment.checkoutSessionId && payment.providerPaymentId.startsWith("cs_pending:")
    ? settleHostedCheckout(payment.checkoutSessionId, { now })
    : settlePayment(payment.providerPaymentId, now);
}

/**
 * Makes an unfinished payment impossible to pay, then settles it from what it became:
 * canceled fails it, paid meanwhile credits it, processing (too late) stays pending. A
 * hosted checkout is expired as a whole: Stripe cancels its payment with it.
 */
async function cancelUnfinished(payment: payments.UnfinishedPayment, now: Date): Promise<Settlement> {
  const provider = paymentProvider();
  if (payment.checkoutSessionId) await provider.expireHostedCheckout?.(payment.checkoutSessionId);
  else await provider.cancelPayment(payment.providerPaymentId);
  return settleFromProvider(payment, now);
}

/**
 * Reserves a payment's amount against the player's limits. When the player's own
 * unfinished payments (another tab, a package looked at and left) are in the way, the
 * newest purchase wins: those are canceled (unless paid meanwhile) and the check runs once
 * more. A limit never has room for two payments the player could both still pay.
 */
async function reserveMakingRoom(userId: string, deposit: DepositToReserve, now: Date): Promise<string> {
  try {
    return await reserveDeposit(userId, deposit, now);
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== "deposit_limit") throw error;
    const unfinished = await payments.unfinishedPaymentsOf(userId, now);
    // Only when canceling them would make room: a purchase refused anyway cancels nothing.
    if (unfinished.length === 0 || !(await fitsWithoutUnfinished(userId, deposit.amountCents, now))) throw error;
    for (const payment of unfinished) await cancelUnfinished(payment, now);
    return reserveDeposit(userId, deposit, now);
  }
}

async function fitsWithoutUnfinished(userId: string, amountCents: number, now: Date): Promise<boolean> {
  try {
    await checkDeposit(userId, amountCents, now, undefined, { countUnfinished: false });
    return true;
  } catch (error) {
    if (error instanceof DomainError && error.code === "deposit_limit") return false;
    throw error;
  }
}

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
  for (let after: payments.UnfinishedPayment | undefined; ; ) {
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
 * unsent, refunds still open at the provider), every `intervalMs` until stopped (every
 * instance may: settling is exactly-once).
 */
export function startPaymentSweep({ intervalMs = 60_000 } = {}) {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    // A pass still running (the provider slow or down) is not joined by another.
    running ??= settleStalePayments()
      .then(() => settleOpenPayouts())
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

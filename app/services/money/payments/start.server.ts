import * as payments from "~/models/money/payment.server";
import { reserveDeposit, type DepositToReserve } from "../../play-safety/deposit-limits.server";
import { DomainError } from "~/shared/domain-error";
import { checkDeposit } from "../../play-safety/responsible-play.server";
import { paymentProvider } from "~/infra/payment-providers/current-provider.server";
import type { Product } from "./pricing.server";
import type { PaymentProvider } from "~/infra/payment-providers/provider";
import { cancelUnfinished } from "./settle.server";

/**
 * Starting a card payment or a hosted checkout: the deposit limits are checked and the
 * payment reserved before the provider is called.
 */
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
async function startReserved<T>(
  reservationId: string,
  now: Date,
  call: () => Promise<T>,
  ids: (started: T) => { providerPaymentId: string; checkoutSessionId?: string },
): Promise<T> {
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

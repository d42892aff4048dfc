import { priceCoins, type Product } from "~/services/money/payments/pricing.server";
import { createTestUser } from "./factories";
import { payThrough, type StripeMode } from "./stripe-mode";

/** A new player who paid for `product` through the fake Stripe: by default $24.99 of coins (2,499 cash and 2,501 bonus). */
export async function paidPlayer(mode: StripeMode, product: Product = priceCoins("package_4")!) {
  const player = await createTestUser();
  return { player, paymentId: await payThrough(mode, player.id, product) };
}

let events = 0;
/** A dispute event as Stripe sends it (each with an event id of its own), with the dispute's status when given. */
export function disputeEvent(type: string, disputeId: string, paymentIntent: string, amount: number, status?: string) {
  const object = { id: disputeId, object: "dispute", payment_intent: paymentIntent, amount, ...(status ? { status } : {}) };
  return JSON.stringify({ id: `evt_dispute_${++events}_${Date.now()}`, object: "event", type, data: { object } });
}

let refunds = 0;
/** Stripe's word that `refundedSoFar` cents of the payment have been refunded (each with an event id of its own). */
export function refundEvent(paymentIntent: string, refundedSoFar: number) {
  const object = { id: `ch_refund_${++refunds}`, object: "charge", payment_intent: paymentIntent, amount_refunded: refundedSoFar };
  return JSON.stringify({ id: `evt_refund_${refunds}_${Date.now()}`, object: "event", type: "charge.refunded", data: { object } });
}

import { expect } from "vitest";
import { priceCoins, type Product } from "~/services/money/payments/pricing.server";
import { settlePayment } from "~/services/money/payments/settle.server";
import { startPayment } from "~/services/money/payments/start.server";
import { createTestUser } from "./factories";
import type { StripeMode } from "./stripe-mode";

/** A new player who paid for `product` through the fake Stripe: by default $24.99 of coins (2,499 cash and 2,501 bonus). */
export async function paidPlayer(mode: StripeMode, product: Product = priceCoins("package_4")!) {
  const player = await createTestUser();
  const { paymentId } = await startPayment(player.id, product);
  mode.stripe.succeed(paymentId);
  expect(await settlePayment(paymentId)).toMatchObject({ status: "succeeded" });
  return { player, paymentId };
}

let events = 0;
/** A dispute event as Stripe sends it (each with an event id of its own), with the dispute's status when given. */
export function disputeEvent(type: string, disputeId: string, paymentIntent: string, amount: number, status?: string) {
  const object = { id: disputeId, object: "dispute", payment_intent: paymentIntent, amount, ...(status ? { status } : {}) };
  return JSON.stringify({ id: `evt_dispute_${++events}_${Date.now()}`, object: "event", type, data: { object } });
}

import { describe, expect, it } from "vitest";
import { priceCoins, priceVip, settlePayment, startPayment, type Product } from "~/services/payments.server";
import { checkDeposit, depositLimits, setDepositLimit } from "~/services/responsible-play.server";
import { call, pageText, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";
import { codeOf } from "../support/outcomes";
import { setUpStripeMode } from "../support/stripe-mode";

/**
 * Money shown as money (issue 17, item 6; PRODUCT.md "Records show money as money"): the
 * dollars charged, refunded and paid out, as opposed to coins, in the player's records,
 * their deposit limits and the back office. Stripe mode, so that refunds and disputes
 * arrive as Stripe sends them.
 */
const mode = setUpStripeMode();

const coins = (id: string) => priceCoins(id)!;
const vip = (tier: string) => priceVip(tier)!;

/** A card payment for `product`, charged and settled at `at` (the fake Stripe takes the money). */
async function pay(userId: string, product: Product, at = new Date()) {
  const { paymentId } = await startPayment(userId, product, at);
  mode.stripe.succeed(paymentId);
  expect(await settlePayment(paymentId, at)).toMatchObject({ status: "succeeded" });
  return paymentId;
}

let events = 0;
/** Stripe's word that `cents` of the payment have been refunded so far, or that `cents` of it are disputed. */
async function reverse(paymentIntentId: string, reason: "refund" | "dispute", cents: number) {
  events += 1;
  const object =
    reason === "refund"
      ? { id: `ch_${events}`, object: "charge", payment_intent: paymentIntentId, amount_refunded: cents }
      : { id: `dp_${events}`, object: "dispute", payment_intent: paymentIntentId, amount: cents };
  const type = reason === "refund" ? "charge.refunded" : "charge.dispute.created";
  const response = await mode.deliver(JSON.stringify({ id: `evt_money_${events}`, object: "event", type, data: { object } }));
  expect(response.status).toBe(200);
}

describe("deposit limits count the dollars charged", () => {
  it("counts coin and VIP charges at their price, and a refund or dispute gives no room back", async () => {
    const player = await createTestUser();
    const now = new Date();
    await setDepositLimit(player.id, "day", 10_000, now);
    const bought = await pay(player.id, coins("package_4"), now); // $24.99 for 5,000 coins
    const membership = await pay(player.id, vip("bronze"), now); // $9.99, no coins
    const charged = 2499 + 999;
    const used = async () => (await depositLimits(player.id, new Date())).find((l) => l.period === "day")!.usedCents;
    expect(await used()).toBe(charged);

    // Refunded and disputed in full: the money came in, so it still counts against the limit
    // (else buying, being refunded and buying again would go round it).
    await reverse(bought, "refund", 2499);
    await reverse(membership, "dispute", 999);
    expect(await used()).toBe(charged);
    expect(await codeOf(checkDeposit(player.id, 10_000 - charged, new Date()))).toBe("ok");
    expect(await codeOf(checkDeposit(player.id, 10_000 - charged + 1, new Date()))).toBe("deposit_limit");
    await expect(checkDeposit(player.id, 10_000, new Date())).rejects.toThrow(/\(\$34\.98 used\)\. It resets at /);
    expect(await pageText(await call("/responsible-play", { cookie: await sessionCookie(player.id) }))).toContain("Used, payments in progress included: $34.98");
  });
});

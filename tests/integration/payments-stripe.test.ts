import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalance } from "~/models/ledger.server";
import { settleStalePayments } from "~/services/payments.server";
import { enterRaffle } from "~/services/raffles.server";
import { call, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";
import { startFakeStripe, type FakeStripe } from "../support/fake-stripe";

/**
 * The Stripe adapter against a local server that speaks Stripe's API, and webhooks
 * signed with the SDK's own test-header helper.
 */
const WEBHOOK_SECRET = "whsec_test_secret_for_the_suite";
const ENV = {
  STRIPE_SECRET_KEY: "sk_test_fake",
  STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  SESSION_SECRET: "s".repeat(40),
  ADMIN_ACCESS_KEY: "an-admin-key-for-tests",
  PAYOUT_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64"),
  ALLOWED_COUNTRIES: "GB",
};
const saved: Record<string, string | undefined> = {};
const resetEnvCache = () => ((globalThis as { __raffleEnv?: unknown }).__raffleEnv = undefined);
let stripe: FakeStripe;
const signer = new Stripe("sk_test_fake");

beforeAll(async () => {
  stripe = await startFakeStripe();
  for (const [key, value] of Object.entries({ ...ENV, STRIPE_API_URL: stripe.url })) {
    saved[key] = process.env[key];
    process.env[key] = value;
  }
  resetEnvCache();
});

afterAll(async () => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetEnvCache();
  await stripe.close();
});

function rawPost(payload: string, signature: string) {
  return call("/api/stripe/webhook", { method: "POST", headers: { "Stripe-Signature": signature, "Content-Type": "application/json" }, body: payload });
}

async function buyer(coins = 0n, vip?: "gold") {
  const user = await createTestUser({ coins, ...(vip ? { vipTier: vip, vipExpiry: new Date(Date.now() + 86_400_000) } : {}) });
  return { ...user, cookie: await sessionCookie(user.id) };
}

async function createIntent(cookie: string, packageId = "package_2", extra: Record<string, unknown> = {}) {
  const response = await call("/api/create-payment-intent", { method: "POST", cookie, json: { packageId, ...extra } });
  expect(response.status).toBe(200);
  return (await response.json()) as { clientSecret: string; paymentIntentId: string; coins: number; amount: string };
}

describe("Stripe payments", () => {
  it("prices on the server, whatever the client sends, and credits once after Stripe says succeeded", async () => {
    const p = await buyer();
    const intent = await createIntent(p.cookie, "package_2", { amount: 1, coins: 999999 });
    expect(intent).toMatchObject({ coins: 600, amount: "4.99" });
    expect(intent.clientSecret).toMatch(/_secret_/);
    expect(stripe.intents.get(intent.paymentIntentId)).toMatchObject({ amount: 499, metadata: { userId: p.id, purpose: "coins", product: "package_2" } });

    const early = await call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId: intent.paymentIntentId } });
    expect(early.status).toBe(202);
    expect(await userBalance(p.id)).toBe(0n);

    stripe.succeed(intent.paymentIntentId);
    const confirmed = await call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId: intent.paymentIntentId } });
    expect(await confirmed.json()).toMatchObject({ status: "succeeded", coins: 600, coinBalance: 600 });
    const again = await call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId: intent.paymentIntentId } });
    expect(await again.json()).toMatchObject({ coins: 600, coinBalance: 600 });
    expect(await userBalance(p.id)).toBe(600n);
  });

  it("credits once when the webhook arrives 5 times, 20 at once, and races the confirm call", async () => {
    const p = await buyer();
    const intent = await createIntent(p.cookie);
    const succeeded = stripe.succeed(intent.paymentIntentId);
    const payload = JSON.stringify({ id: "evt_repeat", object: "event", type: "payment_intent.succeeded", data: { object: succeeded } });
    const header = () => signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    for (let i = 0; i < 5; i++) expect((await rawPost(payload, header())).status).toBe(200);
    const burst = await Promise.all([
      ...Array.from({ length: 20 }, () => rawPost(payload, header())),
      call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId: intent.paymentIntentId } }),
    ]);
    expect(burst.every((r) => r.status === 200)).toBe(true);
    expect(await userBalance(p.id)).toBe(600n);
    expect(await db().ledgerTransaction.count({ where: { reference: `deposit:${intent.paymentIntentId}` } })).toBe(1);
  });

  it("refuses a forged or stale signature and changes nothing", async () => {
    const p = await buyer();
    const intent = await createIntent(p.cookie);
    const succeeded = stripe.succeed(intent.paymentIntentId);
    const payload = JSON.stringify({ id: "evt_forged", object: "event", type: "payment_intent.succeeded", data: { object: succeeded } });
    const forged = signer.webhooks.generateTestHeaderString({ payload, secret: "whsec_not_ours" });
    const stale = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect((await rawPost(payload, forged)).status).toBe(400);
    expect((await rawPost(payload, stale)).status).toBe(400);
    expect((await call("/api/stripe/webhook", { method: "POST", body: payload })).status).toBe(400);
    expect(await userBalance(p.id)).toBe(0n);
  });

  it("changes nothing for another player's payment id", async () => {
    const owner = await buyer();
    const thief = await buyer();
    const intent = await createIntent(owner.cookie);
    stripe.succeed(intent.paymentIntentId);
    const response = await call("/api/confirm-payment", { method: "POST", cookie: thief.cookie, json: { paymentIntentId: intent.paymentIntentId } });
    expect(response.status).toBe(404);
    expect(await userBalance(thief.id)).toBe(0n);
    expect(await userBalance(owner.id)).toBe(0n);
  });

  it("marks a declined payment failed, credits nothing, and says why", async () => {
    const p = await buyer();
    const intent = await createIntent(p.cookie);
    stripe.decline(intent.paymentIntentId, "Your card has insufficient funds.");
    const response = await call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId: intent.paymentIntentId } });
    expect(response.status).toBe(402);
    expect(await response.json()).toEqual({ message: "Your card has insufficient funds." });
    expect((await db().payment.findUniqueOrThrow({ where: { providerPaymentId: intent.paymentIntentId } })).status).toBe("failed");
  });

  it("adds the VIP bonus percentage to purchases", async () => {
    const p = await buyer(0n, "gold");
    const intent = await createIntent(p.cookie, "package_2");
    stripe.succeed(intent.paymentIntentId);
    const response = await call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId: intent.paymentIntentId } });
    expect(await response.json()).toMatchObject({ coins: 780 });
  });

  it("reverses refunded coins, and flags the account when they were already spent", async () => {
    const keeper = await buyer();
    const intent = await createIntent(keeper.cookie, "package_1");
    stripe.succeed(intent.paymentIntentId);
    await call("/api/confirm-payment", { method: "POST", cookie: keeper.cookie, json: { paymentIntentId: intent.paymentIntentId } });
    const refund = JSON.stringify({ id: "evt_refund", object: "event", type: "charge.refunded", data: { object: { id: "ch_1", object: "charge", payment_intent: intent.paymentIntentId } } });
    expect((await rawPost(refund, signer.webhooks.generateTestHeaderString({ payload: refund, secret: WEBHOOK_SECRET }))).status).toBe(200);
    expect(await userBalance(keeper.id)).toBe(0n);

    const spender = await buyer();
    const second = await createIntent(spender.cookie, "package_1");
    stripe.succeed(second.paymentIntentId);
    await call("/api/confirm-payment", { method: "POST", cookie: spender.cookie, json: { paymentIntentId: second.paymentIntentId } });
    const raffle = await createTestRaffle({ entryPrice: 60n });
    await enterRaffle({ userId: spender.id, raffleId: raffle.id });
    const dispute = JSON.stringify({ id: "evt_dispute", object: "event", type: "charge.dispute.created", data: { object: { id: "dp_1", object: "dispute", payment_intent: second.paymentIntentId } } });
    expect((await rawPost(dispute, signer.webhooks.generateTestHeaderString({ payload: dispute, secret: WEBHOOK_SECRET }))).status).toBe(200);
    expect(await userBalance(spender.id)).toBe(0n);
    const flagged = await db().user.findUniqueOrThrow({ where: { id: spender.id } });
    expect(flagged.flaggedAt).not.toBeNull();
    expect(flagged.flagReason).toContain("60 coins already spent");
  });

  it("acknowledges and ignores unknown events", async () => {
    const payload = JSON.stringify({ id: "evt_unknown", object: "event", type: "customer.created", data: { object: { id: "cus_1" } } });
    const response = await rawPost(payload, signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
    expect(response.status).toBe(200);
  });

  it("pays through Stripe Checkout without JavaScript, crediting on return and on the webhook once", async () => {
    const p = await buyer();
    const start = await call("/checkout?package=package_3", { method: "POST", cookie: p.cookie, form: { intent: "hosted" } });
    expect(start.status).toBe(303);
    expect(start.headers.get("Location")).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const payment = await db().payment.findFirstOrThrow({ where: { userId: p.id } });
    const session = stripe.completeSession(payment.checkoutSessionId!);
    const completed = JSON.stringify({ id: "evt_cs", object: "event", type: "checkout.session.completed", data: { object: session } });
    await rawPost(completed, signer.webhooks.generateTestHeaderString({ payload: completed, secret: WEBHOOK_SECRET }));
    const back = await call(`/checkout-success?session_id=${session.id}`, { cookie: p.cookie });
    expect(back.status).toBe(302);
    expect(await userBalance(p.id)).toBe(1500n);
  });

  it("buys VIP: 30 days, extended by a second purchase", async () => {
    const p = await buyer();
    const first = (await (await call("/api/vip/subscribe", { method: "POST", cookie: p.cookie, json: { tier: "gold" } })).json()) as { paymentIntentId: string; tier: string };
    expect(first.tier).toBe("gold");
    expect(stripe.intents.get(first.paymentIntentId)!.amount).toBe(3999);
    stripe.succeed(first.paymentIntentId);
    const confirmed = (await (await call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId: first.paymentIntentId } })).json()) as { vipExpiry: string };
    const expiry = new Date(confirmed.vipExpiry).getTime();
    expect(Math.abs(expiry - (Date.now() + 30 * 86_400_000))).toBeLessThan(60_000);
    const second = (await (await call("/api/vip/subscribe", { method: "POST", cookie: p.cookie, json: { tier: "gold" } })).json()) as { paymentIntentId: string };
    stripe.succeed(second.paymentIntentId);
    const extended = (await (await call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId: second.paymentIntentId } })).json()) as { vipExpiry: string };
    expect(new Date(extended.vipExpiry).getTime() - expiry).toBe(30 * 86_400_000);
  });

  it("settles, once, a charged payment whose confirmation and webhook never came (a closed browser, a crash)", async () => {
    const p = await buyer();
    const charged = await createIntent(p.cookie);
    const abandoned = await createIntent(p.cookie, "package_1");
    stripe.succeed(charged.paymentIntentId);
    const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);
    // Not yet: the player may still be confirming.
    expect(await settleStalePayments(later(1))).toBe(0);
    expect(await userBalance(p.id)).toBe(0n);
    // Two instances sweeping at once credit it once; the unpaid one stays pending.
    const swept = await Promise.all([settleStalePayments(later(3)), settleStalePayments(later(3))]);
    expect(swept.reduce((a, b) => a + b)).toBeGreaterThanOrEqual(1);
    expect(await userBalance(p.id)).toBe(600n);
    expect(await db().ledgerTransaction.count({ where: { reference: `deposit:${charged.paymentIntentId}` } })).toBe(1);
    expect(await db().payment.findUniqueOrThrow({ where: { providerPaymentId: abandoned.paymentIntentId } })).toMatchObject({ status: "pending" });
    expect(await settleStalePayments(later(4))).toBe(0);
    expect(await userBalance(p.id)).toBe(600n);
  });
});

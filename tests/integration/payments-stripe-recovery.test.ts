import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalance } from "~/models/money/ledger.server";
import { settleStalePayments } from "~/services/money/payments/sweep.server";
import { call, cookiesFrom, pageText } from "../support/app";
import { buyer, createIntent, setUpStripeMode } from "../support/stripe-mode";

/**
 * Stripe payments that did not finish the usual way, against the local Stripe double: the
 * sweep settles a charge whose confirmation never came and cancels one left unpaid, and
 * while Stripe cannot be reached players and webhooks get a 503 and nothing is lost.
 */
const mode = setUpStripeMode();

function rawPost(payload: string, signature: string) {
  return mode.deliver(payload, signature);
}

function signed(payload: string) {
  return mode.sign(payload);
}

describe("Stripe payments that did not finish", () => {
  it("settles, once, a charged payment whose confirmation and webhook never came (a closed browser, a crash)", async () => {
    const p = await buyer();
    const charged = await createIntent(p.cookie);
    const abandoned = await createIntent(p.cookie, "package_1");
    mode.stripe.succeed(charged.paymentIntentId);
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

  it("cancels at Stripe a payment left unpaid for 30 minutes (card form or hosted checkout), so that it stops holding the player's limits; one processing stays, never asked to cancel", async () => {
    const p = await buyer();
    const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);
    const form = await createIntent(p.cookie);
    const processing = await createIntent(p.cookie, "package_1");
    mode.stripe.intents.get(processing.paymentIntentId)!.status = "processing";
    const hosted = await call("/checkout?package=package_3", { method: "POST", cookie: p.cookie, form: { intent: "hosted" } });
    expect(hosted.status).toBe(303);
    const checkout = await db().payment.findFirstOrThrow({ where: { userId: p.id, checkoutSessionId: { not: null } }, select: { checkoutSessionId: true } });
    // A second hosted checkout, where a card was declined: its session has a PaymentIntent,
    // which Stripe lets only the session's expiry cancel.
    const declinedHosted = await call("/vip/checkout?tier=silver", { method: "POST", cookie: p.cookie, form: { intent: "hosted" } });
    expect(declinedHosted.status).toBe(303);
    const declinedCheckout = await db().payment.findFirstOrThrow({ where: { userId: p.id, purpose: "vip" }, select: { checkoutSessionId: true } });
    const declinedIntent = mode.stripe.declineOnSession(declinedCheckout.checkoutSessionId!);
    const status = async () =>
      Object.fromEntries(
        (await db().payment.findMany({ where: { userId: p.id }, select: { product: true, status: true } })).map((row) => [row.product, row.status]),
      );
    // At 3 minutes the sweep learns the declined session's payment (still open: not failed).
    await settleStalePayments(later(3));
    expect(await db().payment.findFirstOrThrow({ where: { checkoutSessionId: declinedCheckout.checkoutSessionId } })).toMatchObject({
      providerPaymentId: declinedIntent.id,
      status: "pending",
    });

    // At 29 minutes the player may still be typing their card: nothing is canceled.
    const mine = [form.paymentIntentId, processing.paymentIntentId, checkout.checkoutSessionId!, declinedCheckout.checkoutSessionId!, declinedIntent.id];
    const cancellations = () => mode.stripe.requests.filter((r) => /\/(cancel|expire)$/.test(r.path) && mine.some((id) => r.path.includes(id)));
    await settleStalePayments(later(29));
    expect(await status()).toEqual({ package_2: "pending", package_1: "pending", package_3: "pending", silver: "pending" });
    expect(cancellations()).toEqual([]);

    await settleStalePayments(later(31));
    expect(
      cancellations()
        .map((r) => r.path)
        .sort(),
    ).toEqual(
      [
        `/v1/payment_intents/${form.paymentIntentId}/cancel`,
        `/v1/checkout/sessions/${checkout.checkoutSessionId}/expire`,
        `/v1/checkout/sessions/${declinedCheckout.checkoutSessionId}/expire`,
      ].sort(),
    );
    expect(mode.stripe.intents.get(form.paymentIntentId)!.status).toBe("canceled");
    // Processing: too late to cancel, it may still be paid; it stays pending (and keeps holding),
    // and later passes only look at it again.
    expect(await status()).toEqual({ package_2: "failed", package_1: "pending", package_3: "failed", silver: "failed" });
    await settleStalePayments(later(32));
    expect(cancellations().filter((r) => r.path.includes(processing.paymentIntentId))).toEqual([]);
    mode.stripe.intents.get(processing.paymentIntentId)!.status = "succeeded";
    await settleStalePayments(later(33));
    expect((await status()).package_1).toBe("succeeded");
    expect(mode.stripe.intents.get(declinedIntent.id)!.status).toBe("canceled");
    expect(await db().payment.findUniqueOrThrow({ where: { providerPaymentId: form.paymentIntentId } })).toMatchObject({
      failureMessage: "This payment was canceled before it was paid; nothing was charged.",
    });
    // Only the processing payment was credited: package_1, 100 coins.
    expect(await userBalance(p.id)).toBe(100n);
  });

  it("answers 503 and a clear message while Stripe is down, keeps only failed attempts (they hold nothing against limits), and works again when it is back", async () => {
    const p = await buyer();
    const message = "The payment service is not answering right now. Please try again in a minute.";
    await mode.stripe.down(async () => {
      const api = await call("/api/create-payment-intent", { method: "POST", cookie: p.cookie, json: { packageId: "package_2" } });
      expect(api.status).toBe(503);
      expect(api.headers.get("Retry-After")).toBe("60");
      expect(await api.json()).toEqual({ message });
      // Without JavaScript: back to the checkout page, which says the same.
      const form = await call("/checkout?package=package_2", { method: "POST", cookie: p.cookie, form: { intent: "hosted" } });
      expect(form.status).toBe(302);
      expect(form.headers.get("Location")).toBe("/checkout?package=package_2");
      const page = await call("/checkout?package=package_2", { cookie: `${p.cookie}; ${cookiesFrom(form)}` });
      expect(await pageText(page)).toContain(message);
      // Each attempt reserved its amount first; the outage gave the reservation up.
      const attempts = await db().payment.findMany({ where: { userId: p.id }, select: { status: true, failureMessage: true } });
      expect(attempts).toEqual([
        { status: "failed", failureMessage: "The payment service did not start this payment." },
        { status: "failed", failureMessage: "The payment service did not start this payment." },
      ]);
      expect(await userBalance(p.id)).toBe(0n);
    });
    expect((await createIntent(p.cookie)).coins).toBe(600);
  });

  it("while Stripe is down, a webhook is answered 503 (Stripe sends it again) and a returning player is told the charge is coming", async () => {
    const p = await buyer();
    const intent = await createIntent(p.cookie);
    const succeeded = mode.stripe.succeed(intent.paymentIntentId);
    const payload = JSON.stringify({ id: "evt_outage", object: "event", type: "payment_intent.succeeded", data: { object: succeeded } });
    await mode.stripe.down(async () => {
      const webhook = await rawPost(payload, signed(payload));
      expect(webhook.status).toBe(503);
      const back = await call(`/checkout-success?payment_intent=${intent.paymentIntentId}`, { cookie: p.cookie });
      expect(back.status).toBe(302);
      const home = await call("/", { cookie: `${p.cookie}; ${cookiesFrom(back)}` });
      expect(await pageText(home)).toContain("If you were charged, your coins are added within a few minutes.");
      expect(await userBalance(p.id)).toBe(0n);
    });
    // Stripe's retry, once it is back, credits it once.
    expect((await rawPost(payload, signed(payload))).status).toBe(200);
    expect((await rawPost(payload, signed(payload))).status).toBe(200);
    expect(await userBalance(p.id)).toBe(600n);
  });
});

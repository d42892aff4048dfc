import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalance } from "~/models/money/ledger.server";
import { call, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";
import { createIntent, setUpStripeMode } from "../support/stripe-mode";

/**
 * Credit cards (issue 35 item 3; ADR 080): a payment is authorised, its card's funding read
 * (Stripe's payment_method.card.funding), then captured, or released where the payer's
 * jurisdiction bans credit cards for gambling (GB). IE stands for a place that does not.
 */
const mode = setUpStripeMode({ env: { ALLOWED_COUNTRIES: "GB,IE" } });

async function payer(country: string) {
  const user = await createTestUser({ country });
  return { ...user, cookie: await sessionCookie(user.id) };
}
const confirm = (cookie: string, paymentIntentId: string) => call("/api/confirm-payment", { method: "POST", cookie, json: { paymentIntentId } });
const paymentRow = (providerPaymentId: string) => db().payment.findUniqueOrThrow({ where: { providerPaymentId } });

describe("credit cards", () => {
  it("asks Stripe to authorise only, so nothing is taken before the card is read", async () => {
    const p = await payer("GB");
    const intent = await createIntent(p.cookie);
    const created = mode.stripe.requests.find((r) => r.method === "POST" && r.path === "/v1/payment_intents" && r.body["metadata[userId]"] === p.id);
    expect(created?.body.capture_method).toBe("manual");
    expect(mode.stripe.intents.get(intent.paymentIntentId)?.status).toBe("requires_payment_method");
  });

  it("refuses a credit card in GB before capture: the authorisation is released, nothing credited, the player told why", async () => {
    const p = await payer("GB");
    const intent = await createIntent(p.cookie);
    mode.stripe.authorize(intent.paymentIntentId, "credit");
    const answers = await Promise.all([confirm(p.cookie, intent.paymentIntentId), confirm(p.cookie, intent.paymentIntentId)]);
    expect(answers.map((a) => a.status)).toEqual([402, 402]);
    expect(await answers[0]!.json()).toEqual({ message: expect.stringContaining("Credit cards cannot be used to pay for gambling where you live") });
    expect(mode.stripe.intents.get(intent.paymentIntentId)?.status).toBe("canceled");
    expect(mode.stripe.requests.some((r) => r.path === `/v1/payment_intents/${intent.paymentIntentId}/capture`)).toBe(false);
    expect(await paymentRow(intent.paymentIntentId)).toMatchObject({ status: "failed" });
    expect(await userBalance(p.id)).toBe(0n);
  });

  it("refuses it when the authorisation arrives by webhook too", async () => {
    const p = await payer("GB");
    const intent = await createIntent(p.cookie);
    const authorized = mode.stripe.authorize(intent.paymentIntentId, "credit");
    const payload = JSON.stringify({
      id: "evt_capturable_credit",
      object: "event",
      type: "payment_intent.amount_capturable_updated",
      data: { object: authorized },
    });
    expect((await mode.deliver(payload)).status).toBe(200);
    expect(mode.stripe.intents.get(intent.paymentIntentId)?.status).toBe("canceled");
    expect(await userBalance(p.id)).toBe(0n);
  });

  it("captures a debit card in GB and a credit card elsewhere, and credits once", async () => {
    const gb = await payer("GB");
    const debit = await createIntent(gb.cookie);
    mode.stripe.authorize(debit.paymentIntentId, "debit");
    expect(await (await confirm(gb.cookie, debit.paymentIntentId)).json()).toMatchObject({ status: "succeeded", coins: 600 });
    expect(mode.stripe.intents.get(debit.paymentIntentId)?.status).toBe("succeeded");

    const ie = await payer("IE");
    const credit = await createIntent(ie.cookie);
    mode.stripe.authorize(credit.paymentIntentId, "credit");
    const answers = await Promise.all(Array.from({ length: 4 }, () => confirm(ie.cookie, credit.paymentIntentId)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(mode.stripe.intents.get(credit.paymentIntentId)?.status).toBe("succeeded");
    expect(await userBalance(ie.id)).toBe(600n);
    expect(await db().ledgerTransaction.count({ where: { reference: `deposit:${credit.paymentIntentId}` } })).toBe(1);
  });
});

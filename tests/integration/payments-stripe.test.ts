import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalance } from "~/models/money/ledger.server";
import { enterRaffle } from "~/services/raffles/raffles.server";
import { call, pageText } from "../support/app";
import { createTestRaffle } from "../support/factories";
import { buyer, createIntent, setUpStripeMode } from "../support/stripe-mode";

/**
 * The Stripe adapter against a local server that speaks Stripe's API, and webhooks
 * signed with the SDK's own test-header helper. Payments that never finished (the sweep)
 * and Stripe outages: payments-stripe-recovery.test.ts.
 */
const mode = setUpStripeMode();

function rawPost(payload: string, signature: string) {
  return mode.deliver(payload, signature);
}

function signed(payload: string) {
  return mode.sign(payload);
}

describe("Stripe payments", () => {
  it("prices on the server, whatever the client sends, and credits once after Stripe says succeeded", async () => {
    const p = await buyer();
    const intent = await createIntent(p.cookie, "package_2", { amount: 1, coins: 999999 });
    expect(intent).toMatchObject({ coins: 600, amount: "4.99" });
    expect(intent.clientSecret).toMatch(/_secret_/);
    expect(mode.stripe.intents.get(intent.paymentIntentId)).toMatchObject({ amount: 499, metadata: { userId: p.id, purpose: "coins", product: "package_2" } });

    const early = await call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId: intent.paymentIntentId } });
    expect(early.status).toBe(202);
    expect(await userBalance(p.id)).toBe(0n);

    mode.stripe.succeed(intent.paymentIntentId);
    const confirmed = await call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId: intent.paymentIntentId } });
    expect(await confirmed.json()).toMatchObject({ status: "succeeded", coins: 600, coinBalance: 600 });
    const again = await call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId: intent.paymentIntentId } });
    expect(await again.json()).toMatchObject({ coins: 600, coinBalance: 600 });
    expect(await userBalance(p.id)).toBe(600n);
  });

  it("credits once when the webhook arrives 5 times, 20 at once, and races the confirm call", async () => {
    const p = await buyer();
    const intent = await createIntent(p.cookie);
    const succeeded = mode.stripe.succeed(intent.paymentIntentId);
    const payload = JSON.stringify({ id: "evt_repeat", object: "event", type: "payment_intent.succeeded", data: { object: succeeded } });
    const header = () => signed(payload);
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
    const succeeded = mode.stripe.succeed(intent.paymentIntentId);
    const payload = JSON.stringify({ id: "evt_forged", object: "event", type: "payment_intent.succeeded", data: { object: succeeded } });
    const forged = mode.sign(payload, { secret: "whsec_not_ours" });
    const stale = mode.sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect((await rawPost(payload, forged)).status).toBe(400);
    expect((await rawPost(payload, stale)).status).toBe(400);
    expect((await call("/api/stripe/webhook", { method: "POST", body: payload })).status).toBe(400);
    expect(await userBalance(p.id)).toBe(0n);
  });

  it("changes nothing for another player's payment id", async () => {
    const owner = await buyer();
    const thief = await buyer();
    const intent = await createIntent(owner.cookie);
    mode.stripe.succeed(intent.paymentIntentId);
    const response = await call("/api/confirm-payment", { method: "POST", cookie: thief.cookie, json: { paymentIntentId: intent.paymentIntentId } });
    expect(response.status).toBe(404);
    expect(await userBalance(thief.id)).toBe(0n);
    expect(await userBalance(owner.id)).toBe(0n);
  });

  it("says why a card was declined and credits nothing, but keeps the payment open: another card paying it later is credited", async () => {
    const p = await buyer();
    const intent = await createIntent(p.cookie);
    mode.stripe.decline(intent.paymentIntentId, "Your card has insufficient funds.");
    const response = await call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId: intent.paymentIntentId } });
    expect(response.status).toBe(402);
    expect(await response.json()).toEqual({ message: "Your card has insufficient funds." });
    const failedEvent = JSON.stringify({
      id: "evt_declined",
      object: "event",
      type: "payment_intent.payment_failed",
      data: { object: mode.stripe.intents.get(intent.paymentIntentId) },
    });
    expect((await rawPost(failedEvent, signed(failedEvent))).status).toBe(200);
    expect((await db().payment.findUniqueOrThrow({ where: { providerPaymentId: intent.paymentIntentId } })).status).toBe("pending");
    expect(await userBalance(p.id)).toBe(0n);

    // The player tries another card in the same form: Stripe takes it, and it is credited.
    mode.stripe.succeed(intent.paymentIntentId);
    const paid = await call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId: intent.paymentIntentId } });
    expect(paid.status).toBe(200);
    expect(await userBalance(p.id)).toBe(600n);
  });

  it("adds the VIP bonus percentage to purchases", async () => {
    const p = await buyer(0n, "gold");
    const intent = await createIntent(p.cookie, "package_2");
    mode.stripe.succeed(intent.paymentIntentId);
    const response = await call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId: intent.paymentIntentId } });
    expect(await response.json()).toMatchObject({ coins: 780 });
  });

  it("reverses refunded coins, and flags the account when they were already spent", async () => {
    const keeper = await buyer();
    const intent = await createIntent(keeper.cookie, "package_1");
    mode.stripe.succeed(intent.paymentIntentId);
    await call("/api/confirm-payment", { method: "POST", cookie: keeper.cookie, json: { paymentIntentId: intent.paymentIntentId } });
    const refund = JSON.stringify({
      id: "evt_refund",
      object: "event",
      type: "charge.refunded",
      data: { object: { id: "ch_1", object: "charge", payment_intent: intent.paymentIntentId, amount_refunded: 99 } },
    });
    expect((await rawPost(refund, signed(refund))).status).toBe(200);
    expect(await userBalance(keeper.id)).toBe(0n);

    const spender = await buyer();
    const second = await createIntent(spender.cookie, "package_1");
    mode.stripe.succeed(second.paymentIntentId);
    await call("/api/confirm-payment", { method: "POST", cookie: spender.cookie, json: { paymentIntentId: second.paymentIntentId } });
    const raffle = await createTestRaffle({ entryPrice: 60n });
    await enterRaffle({ userId: spender.id, raffleId: raffle.id });
    const dispute = JSON.stringify({
      id: "evt_dispute",
      object: "event",
      type: "charge.dispute.created",
      data: { object: { id: "dp_1", object: "dispute", payment_intent: second.paymentIntentId, amount: 99 } },
    });
    expect((await rawPost(dispute, signed(dispute))).status).toBe(200);
    expect(await userBalance(spender.id)).toBe(0n);
    const flagged = await db().user.findUniqueOrThrow({ where: { id: spender.id } });
    expect(flagged.flaggedAt).not.toBeNull();
    expect(flagged.flagReason).toContain("60 coins already spent");
  });

  it("flags the account on every dispute (a charge-back), of coins all still there or of VIP, so that nothing is paid to it", async () => {
    const dispute = (paymentIntentId: string, amount: number) => {
      const payload = JSON.stringify({
        id: `evt_${paymentIntentId}`,
        object: "event",
        type: "charge.dispute.created",
        data: { object: { id: `dp_${paymentIntentId}`, object: "dispute", payment_intent: paymentIntentId, amount } },
      });
      return rawPost(payload, signed(payload));
    };
    const flagOf = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id } })).flagReason;

    const keeper = await buyer();
    const coins = await createIntent(keeper.cookie, "package_1");
    mode.stripe.succeed(coins.paymentIntentId);
    await call("/api/confirm-payment", { method: "POST", cookie: keeper.cookie, json: { paymentIntentId: coins.paymentIntentId } });
    expect((await dispute(coins.paymentIntentId, 99)).status).toBe(200);
    expect(await userBalance(keeper.id)).toBe(0n);
    expect(await flagOf(keeper.id)).toBe(`dispute of ${coins.paymentIntentId}: 99 cents charged back`);

    const member = await buyer();
    const vip = (await (await call("/api/vip/subscribe", { method: "POST", cookie: member.cookie, json: { tier: "gold" } })).json()) as {
      paymentIntentId: string;
    };
    mode.stripe.succeed(vip.paymentIntentId);
    await call("/api/confirm-payment", { method: "POST", cookie: member.cookie, json: { paymentIntentId: vip.paymentIntentId } });
    // Part of the price: the membership stays, the flag is set all the same.
    expect((await dispute(vip.paymentIntentId, 1000)).status).toBe(200);
    expect(await flagOf(member.id)).toBe(`dispute of ${vip.paymentIntentId}: 1000 cents charged back`);
    expect((await db().user.findUniqueOrThrow({ where: { id: member.id } })).vipTier).toBe("gold");
  });

  it("acknowledges and ignores unknown events", async () => {
    const payload = JSON.stringify({ id: "evt_unknown", object: "event", type: "customer.created", data: { object: { id: "cus_1" } } });
    const response = await rawPost(payload, signed(payload));
    expect(response.status).toBe(200);
  });

  it("pays through Stripe Checkout without JavaScript, crediting on return and on the webhook once", async () => {
    const p = await buyer();
    const start = await call("/checkout?package=package_3", { method: "POST", cookie: p.cookie, form: { intent: "hosted" } });
    expect(start.status).toBe(303);
    expect(start.headers.get("Location")).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const payment = await db().payment.findFirstOrThrow({ where: { userId: p.id } });
    const session = mode.stripe.completeSession(payment.checkoutSessionId!);
    const completed = JSON.stringify({ id: "evt_cs", object: "event", type: "checkout.session.completed", data: { object: session } });
    await rawPost(completed, signed(completed));
    const back = await call(`/checkout-success?session_id=${session.id}`, { cookie: p.cookie });
    expect(back.status).toBe(302);
    expect(await userBalance(p.id)).toBe(1500n);
  });

  it("buys VIP: 30 days, extended by a second purchase", async () => {
    const p = await buyer();
    const first = (await (await call("/api/vip/subscribe", { method: "POST", cookie: p.cookie, json: { tier: "gold" } })).json()) as {
      paymentIntentId: string;
      tier: string;
    };
    expect(first.tier).toBe("gold");
    expect(mode.stripe.intents.get(first.paymentIntentId)!.amount).toBe(3999);
    mode.stripe.succeed(first.paymentIntentId);
    const confirmed = (await (
      await call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId: first.paymentIntentId } })
    ).json()) as { vipExpiry: string };
    const expiry = new Date(confirmed.vipExpiry).getTime();
    expect(Math.abs(expiry - (Date.now() + 30 * 86_400_000))).toBeLessThan(60_000);
    const second = (await (await call("/api/vip/subscribe", { method: "POST", cookie: p.cookie, json: { tier: "gold" } })).json()) as {
      paymentIntentId: string;
    };
    mode.stripe.succeed(second.paymentIntentId);
    const extended = (await (
      await call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId: second.paymentIntentId } })
    ).json()) as { vipExpiry: string };
    expect(new Date(extended.vipExpiry).getTime() - expiry).toBe(30 * 86_400_000);
  });

  it("buying VIP again extends or moves up, never down: a lower tier waits, and a purchase settled late keeps the higher tier", async () => {
    const p = await buyer();
    const subscribe = (tier: string) => call("/api/vip/subscribe", { method: "POST", cookie: p.cookie, json: { tier } });
    const pay = async (tier: string) => {
      const response = await subscribe(tier);
      expect(response.status, await response.clone().text()).toBe(200);
      const { paymentIntentId } = (await response.json()) as { paymentIntentId: string };
      return paymentIntentId;
    };
    const confirm = async (paymentIntentId: string) => {
      mode.stripe.succeed(paymentIntentId);
      return (await (await call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId } })).json()) as {
        tier: string;
        vipExpiry: string;
      };
    };
    // A bronze started (another tab) before the gold below is bought.
    const lateBronze = await pay("bronze");
    const gold = await confirm(await pay("gold"));
    expect(gold.tier).toBe("gold");

    // Lower than gold: refused before any payment starts, with when it becomes possible.
    const refused = await subscribe("silver");
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^Your GOLD membership runs until \d{4}-\d\d-\d\d \d\d:\d\d UTC\. You can extend it or move up to a higher tier; SILVER can be bought once it ends\.$/,
    );
    const page = await call("/vip/checkout?tier=bronze", { cookie: p.cookie });
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/vip");
    expect((await call("/vip/checkout?tier=diamond", { cookie: p.cookie })).status).toBe(200);
    const vipPage = await pageText(await call("/vip", { cookie: p.cookie }));
    expect(vipPage).toContain("Available when your GOLD membership ends");
    expect(vipPage).toContain('href="/vip/checkout?tier=gold"');

    // The bronze started earlier is paid now: 30 more days, still gold.
    const late = await confirm(lateBronze);
    expect(late.tier).toBe("gold");
    expect(new Date(late.vipExpiry).getTime() - new Date(gold.vipExpiry).getTime()).toBe(30 * 86_400_000);
    expect(await db().user.findUniqueOrThrow({ where: { id: p.id }, select: { vipTier: true } })).toEqual({ vipTier: "gold" });
  });

  describe("webhook delivery", () => {
    /** A hosted checkout the player has paid: Stripe now sends checkout.session.completed and payment_intent.succeeded. */
    async function paidCheckout() {
      const p = await buyer();
      const start = await call("/checkout?package=package_2", { method: "POST", cookie: p.cookie, form: { intent: "hosted" } });
      expect(start.status).toBe(303);
      const payment = await db().payment.findFirstOrThrow({ where: { userId: p.id }, orderBy: { createdAt: "desc" } });
      const session = mode.stripe.completeSession(payment.checkoutSessionId!);
      const intent = mode.stripe.intents.get(session.payment_intent!)!;
      const events = {
        completed: JSON.stringify({ id: `evt_cs_${session.id}`, object: "event", type: "checkout.session.completed", data: { object: session } }),
        succeeded: JSON.stringify({ id: `evt_pi_${intent.id}`, object: "event", type: "payment_intent.succeeded", data: { object: intent } }),
      };
      return { p, paymentId: intent.id, events };
    }
    const deposits = (paymentId: string) => db().ledgerTransaction.count({ where: { reference: `deposit:${paymentId}` } });

    it("credits once when two event types for one payment arrive in either order, and all at once", async () => {
      const inOrder = await paidCheckout();
      expect((await mode.deliver(inOrder.events.succeeded)).status).toBe(200);
      expect((await mode.deliver(inOrder.events.completed)).status).toBe(200);
      expect((await mode.deliver(inOrder.events.succeeded)).status).toBe(200);
      expect(await userBalance(inOrder.p.id)).toBe(600n);
      expect(await deposits(inOrder.paymentId)).toBe(1);

      const together = await paidCheckout();
      const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => mode.deliver(i % 2 ? together.events.succeeded : together.events.completed)));
      expect(burst.map((r) => r.status)).toEqual(Array(10).fill(200));
      // Whichever event type lost the race, a later delivery of it changes nothing.
      expect((await mode.deliver(together.events.succeeded)).status).toBe(200);
      expect(await userBalance(together.p.id)).toBe(600n);
      expect(await deposits(together.paymentId)).toBe(1);
    });

    it("credits once on Stripe's retry when the handler failed after its first write", async () => {
      const { p, paymentId, events } = await paidCheckout();
      // A fault in the database, not a mock: the credit's audit row cannot be written, so the
      // transaction that posted the deposit fails after its ledger insert.
      await db().$executeRawUnsafe(`CREATE FUNCTION test_injected_fault() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'injected fault'; END $$`);
      await db().$executeRawUnsafe(`CREATE TRIGGER test_injected_fault BEFORE INSERT ON audit_events
        FOR EACH ROW WHEN (NEW.action = 'payment.credit') EXECUTE FUNCTION test_injected_fault()`);
      try {
        const failed = await mode.deliver(events.completed);
        expect(failed.status).toBe(500);
        // The handler's first write (binding the payment to its session) stayed; the credit did not.
        expect(await db().payment.count({ where: { providerPaymentId: paymentId, status: "pending" } })).toBe(1);
        expect(await deposits(paymentId)).toBe(0);
        expect(await userBalance(p.id)).toBe(0n);
      } finally {
        await db().$executeRawUnsafe("DROP TRIGGER test_injected_fault ON audit_events");
        await db().$executeRawUnsafe("DROP FUNCTION test_injected_fault()");
      }
      // Stripe retries the failed event (and may send it again after it succeeds).
      expect((await mode.deliver(events.completed)).status).toBe(200);
      expect((await mode.deliver(events.completed)).status).toBe(200);
      expect((await mode.deliver(events.succeeded)).status).toBe(200);
      expect(await userBalance(p.id)).toBe(600n);
      expect(await deposits(paymentId)).toBe(1);
      expect(await db().auditEvent.count({ where: { action: "payment.credit", target: `user:${p.id}` } })).toBe(1);
    });
  });
});

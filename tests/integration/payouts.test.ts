import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalances } from "~/models/money/ledger.server";
import { approvePayout, dashboard } from "~/services/back-office/admin.server";
import { settleOpenPayouts } from "~/services/money/payouts.server";
import { enterRaffle } from "~/services/raffles/raffles.server";
import { call, cookiesFrom, gatedAdmin, pageText, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser, grantCoins } from "../support/factories";
import { setUpStripeMode } from "../support/stripe-mode";

/**
 * Payouts that move money (PRODUCT.md "Payments and withdrawals"; ADR 021): the closed
 * loop (card payments refunded first, newest first), honest states, and who may be paid,
 * against the real Stripe adapter and a local server that speaks Stripe's API.
 */
const mode = setUpStripeMode();

async function buy(cookie: string, packageId: string) {
  const response = await call("/api/create-payment-intent", { method: "POST", cookie, json: { packageId } });
  const { paymentIntentId } = (await response.json()) as { paymentIntentId: string };
  mode.stripe.succeed(paymentIntentId);
  expect((await call("/api/confirm-payment", { method: "POST", cookie, json: { paymentIntentId } })).status).toBe(200);
  return paymentIntentId;
}

/** A player who bought package_2 ($4.99), then package_4 ($24.99), and has `won` more cash (not from a card). */
async function buyer(won = 0n) {
  const user = await createTestUser();
  const cookie = await sessionCookie(user.id);
  const older = await buy(cookie, "package_2");
  const newer = await buy(cookie, "package_4");
  if (won > 0n) await grantCoins(user.id, won, "cash");
  return { ...user, cookie, older, newer };
}

const withdraw = (cookie: string, amount: number) =>
  call("/api/withdraw", { method: "POST", cookie, json: { amount, method: "venmo", accountInfo: "lucky-lou" } });

const legsOf = (withdrawalId: string) =>
  db().payoutLeg.findMany({ where: { withdrawalId }, orderBy: { position: "asc" }, select: { kind: true, amount: true, status: true, failureReason: true } });

/** A signed event from Stripe about `object`, delivered to the webhook. */
const deliverEvent = (id: string, type: string, object: Record<string, unknown>) =>
  mode.deliver(JSON.stringify({ id, object: "event", type, data: { object } }));

const refunded = (providerPaymentId: string) => db().payment.findUniqueOrThrow({ where: { providerPaymentId }, select: { refundedCents: true } });

describe("payouts", () => {
  it("pays back the card payments first, newest first, and only the rest to the chosen method; says so before and after", async () => {
    const p = await buyer(5_000n);
    const page = await pageText(await call("/withdraw", { cookie: p.cookie }));
    expect(page).toContain("the first <strong>$29.98</strong> of a withdrawal is refunded");

    const first = await withdraw(p.cookie, 40);
    expect(first.status).toBe(200);
    const body = (await first.json()) as { id: string; legs: { kind: string; amount: string; to: string }[] };
    expect(body.legs.map((l) => [l.kind, l.amount])).toEqual([
      ["card_refund", "24.99"],
      ["card_refund", "4.99"],
      ["transfer", "10.02"],
    ]);
    expect(body.legs[0]!.to).toMatch(/^Back to the card you paid with on /);
    expect(body.legs[2]!.to).toBe("Venmo ••••ou");

    // What the first request claimed is not offered again.
    const second = (await (await withdraw(p.cookie, 10)).json()) as { legs: { kind: string; amount: string }[] };
    expect(second.legs.map((l) => [l.kind, l.amount])).toEqual([["transfer", "10.00"]]);
    expect(await pageText(await call("/withdraw", { cookie: p.cookie }))).toContain("the first <strong>$0.00</strong> of a withdrawal");
  });

  it("asks for a method only for the part that goes to it: none when all of it goes back to the cards (issue 31)", async () => {
    const p = await buyer(5_000n);
    const noMethod = (amount: number) => call("/api/withdraw", { method: "POST", cookie: p.cookie, json: { amount, method: "", accountInfo: "" } });
    // $29.98 goes back to the cards: $10 needs no method, and a PayPal left blank on the form is no reason to refuse.
    const first = await call("/api/withdraw", { method: "POST", cookie: p.cookie, json: { amount: 10 } });
    expect(first.status).toBe(200);
    const form = await call("/withdraw", { method: "POST", cookie: p.cookie, form: { amount: "10", method: "paypal", "paypal.username": "" } });
    expect(await pageText(await call("/withdraw", { cookie: `${p.cookie}; ${cookiesFrom(form)}` }))).toContain("Withdrawal Requested");
    const stored = await db().withdrawal.findMany({ where: { userId: p.id }, select: { method: true, destinationEncrypted: true } });
    expect(stored).toEqual([
      { method: null, destinationEncrypted: null },
      { method: null, destinationEncrypted: null },
    ]);
    // Each leg named by where it goes: back to the card, and no method's leg.
    const [listed] = (await (await call("/api/withdrawals", { cookie: p.cookie })).json()) as { destination: string; legs: { kind: string; to: string }[] }[];
    expect(listed!.destination).toBe("Back to your cards");
    expect(listed!.legs.map((l) => l.kind)).toEqual(["card_refund"]);
    expect(listed!.legs[0]!.to).toMatch(/^Back to the card you paid with on /);
    // $9.98 is left for the cards: $20 sends $10.02 to a method, which must be named.
    const refused = await noMethod(20);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ title: "Missing Information", message: "Please fill in all required fields" });
    expect((await userBalances(p.id)).cash).toBe(5_000n + 2_998n - 2_000n);
  });

  it("decides from its own split under the lock: two no-method requests for the same card cents, one passes", async () => {
    const p = await buyer(5_000n);
    const results = await Promise.all(
      [20, 20].map((amount) => call("/api/withdraw", { method: "POST", cookie: p.cookie, json: { amount, method: "", accountInfo: "" } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    const refused = (await results.find((r) => r.status === 422)!.json()) as { message: string };
    expect(refused.message).toBe("$10.02 of this withdrawal goes to the method you choose: choose one and fill in its fields");
    expect(await db().withdrawal.count({ where: { userId: p.id } })).toBe(1);
    expect((await userBalances(p.id)).cash).toBe(5_000n + 2_998n - 2_000n);
  });

  it("says before the request how many bonus coins the refunds take back, on the page and in the API, and takes that many", async () => {
    const p = await buyer(5_000n);
    const preview = async (amount: string) => (await call(`/api/withdraw-preview?amount=${amount}`, { cookie: p.cookie })).json();
    expect(await preview("40")).toEqual({ amount: "40.00", backToCards: "29.98", toMethod: "10.02", bonusTakenBack: 2602 });
    expect(await preview("10")).toEqual({ amount: "10.00", backToCards: "10.00", toMethod: "0.00", bonusTakenBack: 1000 });
    expect((await call("/api/withdraw-preview?amount=ten", { cookie: p.cookie })).status).toBe(400);
    expect(await pageText(await call("/withdraw", { cookie: p.cookie }))).toContain("up to <strong>2,602 bonus coins</strong> if all $29.98 goes back");
    const before = (await userBalances(p.id)).bonus;
    const { id } = (await (await withdraw(p.cookie, 40)).json()) as { id: string };
    await approvePayout((await gatedAdmin()).id, id);
    expect(before - (await userBalances(p.id)).bonus).toBe(2602n);
  });

  it("claims a payment's cents once when requests race", async () => {
    const p = await buyer(10_000n);
    // Five at once (the most the withdrawal rate limit lets through).
    const results = await Promise.all(Array.from({ length: 5 }, () => withdraw(p.cookie, 10)));
    expect(results.map((r) => r.status)).toEqual(Array(5).fill(200));
    const legs = await db().payoutLeg.findMany({ where: { withdrawal: { userId: p.id }, kind: "card_refund" }, select: { paymentId: true, amount: true } });
    const perPayment = new Map<string, bigint>();
    for (const leg of legs) perPayment.set(leg.paymentId!, (perPayment.get(leg.paymentId!) ?? 0n) + leg.amount);
    // 5,000 coins asked for: the two payments' 2,998 cents go back to the cards, each claimed once.
    expect([...perPayment.values()].sort((a, b) => Number(a - b))).toEqual([499n, 2499n]);
  });

  it("completes a payout only when the money moved: refunds confirmed by the provider, the transfer's reference recorded", async () => {
    const admin = await gatedAdmin();
    const p = await buyer(5_000n);
    const { id } = (await (await withdraw(p.cookie, 40)).json()) as { id: string };
    const bonusBefore = (await userBalances(p.id)).bonus;
    const dashboardBefore = await dashboard();
    const house = async () =>
      Object.fromEntries((await db().ledgerAccount.findMany({ where: { kind: { in: ["payouts", "card_deposits"] } } })).map((a) => [a.kind, a.balance]));
    const before = await house();

    expect(await (await call(`/api/admin/payouts/${id}/approve`, { method: "POST", cookie: admin.cookie, json: {} })).json()).toEqual({ status: "processing" });
    const sent = [...mode.stripe.refunds.values()].filter((r) => r.payment_intent === p.newer || r.payment_intent === p.older);
    expect(sent.map((r) => [r.payment_intent, r.amount, r.status])).toEqual([
      [p.newer, 2499, "succeeded"],
      [p.older, 499, "succeeded"],
    ]);
    expect((await legsOf(id)).map((l) => l.status)).toEqual(["completed", "completed", "processing"]);
    expect(await refunded(p.newer)).toEqual({ refundedCents: 2499 });
    // Refunded in full, both purchases take their bonus back with them (2,501 and 101 coins),
    // and the account is not flagged: none of it was played.
    expect(bonusBefore - (await userBalances(p.id)).bonus).toBe(2602n);
    expect((await db().user.findUniqueOrThrow({ where: { id: p.id } })).flaggedAt).toBeNull();
    // Stripe's own refund event for it takes no coins back: the site's refund is already counted.
    const balances = await userBalances(p.id);
    const event = { id: "ch_ours", object: "charge", payment_intent: p.newer, amount_refunded: 2499 };
    expect((await deliverEvent("evt_our_refund", "charge.refunded", event)).status).toBe(200);
    expect(await userBalances(p.id)).toEqual(balances);
    // Nor does it tell the player of coins taken back: the withdrawal's own mail tells the refund.
    expect(await db().emailOutbox.count({ where: { userId: p.id, kind: "coins_taken_back" } })).toBe(0);

    const player = (await (await call("/api/withdrawals", { cookie: p.cookie })).json()) as { status: string; legs: { status: string }[] }[];
    expect(player[0]).toMatchObject({ status: "processing", legs: [{ status: "completed" }, { status: "completed" }, { status: "processing" }] });

    expect(
      await (await call(`/api/admin/payouts/${id}/transfer`, { method: "POST", cookie: admin.cookie, json: { reference: "VENMO-90210" } })).json(),
    ).toEqual({
      status: "completed",
    });
    // The refunds undo that much of the purchases (back to card deposits); only the transfer is paid out.
    const after = await house();
    expect([after.card_deposits! - before.card_deposits!, after.payouts! - before.payouts!]).toEqual([2998n, 1002n]);
    expect(await db().withdrawal.findUniqueOrThrow({ where: { id }, select: { status: true } })).toEqual({ status: "completed" });
    const next = await pageText(await call("/history", { cookie: p.cookie }));
    expect(next).toContain("Withdrawal Completed");
    expect(next).toContain("$40.00 has been sent.");
    // The history's withdrawal row says where each part went, and that it arrived.
    expect(next).toContain("completed: $24.99 back to your card (completed) · $4.99 back to your card (completed) · $10.02 to Venmo ••••ou (completed)");
    // Every cent that left counts as withdrawn, for the player and in the back office: the refunds too.
    expect(next).toMatch(/Withdrawn \(paid out\)<\/dt><dd[^>]*>\$40\.00</);
    const paidOut = (d: Awaited<ReturnType<typeof dashboard>>) => Number(d.overview.totalPayouts.replace(/[,.]/g, ""));
    expect(paidOut(await dashboard()) - paidOut(dashboardBefore)).toBe(4000);
  });

  it("flags the account when the bonus of a purchase refunded to the card was played already: buy, play the bonus, refund is no loop (ADR 051)", async () => {
    const admin = await gatedAdmin();
    const p = await buyer();
    // The 2,602 bonus coins of the two purchases, played (bonus first) and lost.
    await enterRaffle({ userId: p.id, raffleId: (await createTestRaffle({ entryPrice: 2_600n })).id });
    expect(await userBalances(p.id)).toMatchObject({ bonus: 2n });
    const { id } = (await (await withdraw(p.cookie, 24.99)).json()) as { id: string };
    expect(await approvePayout(admin.id, id)).toEqual({ status: "completed" });
    // The purchase goes back to the card, its cash with it; its bonus was played already.
    expect([...mode.stripe.refunds.values()].filter((r) => r.payment_intent === p.newer).map((r) => r.amount)).toEqual([2499]);
    expect(await userBalances(p.id)).toMatchObject({ bonus: 0n });
    const { flagReason } = await db().user.findUniqueOrThrow({ where: { id: p.id } });
    expect(flagReason).toBe(`refund of ${p.newer} to the card: 2499 bonus coins of the purchase already played`);
    // Nothing more is paid to the account until support has looked.
    await grantCoins(p.id, 2_000n, "cash");
    const next = (await (await withdraw(p.cookie, 20)).json()) as { id: string };
    await expect(approvePayout(admin.id, next.id)).rejects.toMatchObject({ code: "payee_blocked" });
  });

  it("fails a refund the provider refuses: its amount comes back as cash, and the player is told why", async () => {
    const admin = await gatedAdmin();
    const p = await buyer();
    const { id } = (await (await withdraw(p.cookie, 24.99)).json()) as { id: string };
    const before = await userBalances(p.id);
    const cashBefore = before.cash;
    mode.stripe.refundOutcome = "failed";
    try {
      expect(await approvePayout(admin.id, id)).toEqual({ status: "failed" });
    } finally {
      mode.stripe.refundOutcome = "succeeded";
    }
    expect((await userBalances(p.id)).cash - cashBefore).toBe(2499n);
    // The bonus taken back when the refund was sent comes back with it.
    expect((await userBalances(p.id)).bonus).toBe(before.bonus);
    expect(await refunded(p.newer)).toEqual({ refundedCents: 0 });
    const [w] = (await (await call("/api/withdrawals", { cookie: p.cookie })).json()) as { status: string; reason: string }[];
    expect(w).toMatchObject({ status: "failed", reason: "The refund to your card failed (expired_or_canceled_card)" });
    // The next page tells the player (once), with or without JavaScript.
    const next = await pageText(await call("/", { cookie: p.cookie }));
    expect(next).toContain("Withdrawal Failed");
    expect(next).toContain("$24.99 is back in your balance. The refund to your card failed (expired_or_canceled_card)");
    expect(await pageText(await call("/", { cookie: p.cookie }))).not.toContain("Withdrawal Failed");
    expect(await pageText(await call("/withdraw", { cookie: p.cookie }))).toContain("Why: The refund to your card failed (expired_or_canceled_card)");
  });

  it("waits for a refund pending at the bank: its event (read back from the provider) settles it, once", async () => {
    const admin = await gatedAdmin();
    const p = await buyer();
    const { id } = (await (await withdraw(p.cookie, 10)).json()) as { id: string };
    mode.stripe.refundOutcome = "pending";
    try {
      expect(await approvePayout(admin.id, id)).toEqual({ status: "processing" });
    } finally {
      mode.stripe.refundOutcome = "succeeded";
    }
    const leg = await db().payoutLeg.findFirstOrThrow({ where: { withdrawalId: id } });
    expect(leg.status).toBe("processing");
    // An event alone settles nothing: the provider still says pending.
    const updated = () => deliverEvent("evt_refund_update", "refund.updated", { id: leg.providerReference, object: "refund" });
    expect((await updated()).status).toBe(200);
    expect((await db().payoutLeg.findUniqueOrThrow({ where: { id: leg.id } })).status).toBe("processing");
    mode.stripe.settleRefund(leg.providerReference!, "succeeded");
    await Promise.all([updated(), updated(), settleOpenPayouts()]);
    expect((await db().payoutLeg.findUniqueOrThrow({ where: { id: leg.id } })).status).toBe("completed");
    expect(await db().withdrawal.findUniqueOrThrow({ where: { id }, select: { status: true } })).toEqual({ status: "completed" });
    expect(await db().ledgerTransaction.count({ where: { reference: `payout:${leg.id}` } })).toBe(1);
  });

  it("sends what an outage left unsent once the provider is back (the sweep, with the same idempotency key)", async () => {
    const admin = await gatedAdmin();
    const p = await buyer();
    const { id } = (await (await withdraw(p.cookie, 12)).json()) as { id: string };
    expect(await mode.stripe.down(() => approvePayout(admin.id, id))).toEqual({ status: "processing" });
    expect((await legsOf(id)).map((l) => l.status)).toEqual(["processing"]);
    await settleOpenPayouts();
    await settleOpenPayouts();
    expect((await legsOf(id)).map((l) => l.status)).toEqual(["completed"]);
    expect([...mode.stripe.refunds.values()].filter((r) => r.payment_intent === p.newer).map((r) => r.amount)).toEqual([1200]);
  });

  it("finds a refund whose answer was lost rather than send it again, even a day later when Stripe has forgotten the key", async () => {
    const admin = await gatedAdmin();
    const p = await buyer();
    const { id } = (await (await withdraw(p.cookie, 12)).json()) as { id: string };
    const refundsOfNewer = () => [...mode.stripe.refunds.values()].filter((r) => r.payment_intent === p.newer).map((r) => r.amount);
    // Stripe made the refund; its answer never reached us.
    expect(await mode.stripe.loseAnswers(() => approvePayout(admin.id, id))).toEqual({ status: "processing" });
    expect(refundsOfNewer()).toEqual([1200]);
    expect((await legsOf(id)).map((l) => l.status)).toEqual(["processing"]);
    mode.stripe.forgetIdempotencyKeys();
    await Promise.all([settleOpenPayouts(), settleOpenPayouts()]);
    expect((await legsOf(id)).map((l) => l.status)).toEqual(["completed"]);
    expect(refundsOfNewer()).toEqual([1200]);
    expect(await refunded(p.newer)).toEqual({ refundedCents: 1200 });
  });

  it("finds a refund sent before refunds carried their key (ADR 049) by the leg it was sent for, once Stripe has forgotten the key", async () => {
    const admin = await gatedAdmin();
    const p = await buyer();
    const { id } = (await (await withdraw(p.cookie, 12)).json()) as { id: string };
    const refundsOfNewer = () => [...mode.stripe.refunds.values()].filter((r) => r.payment_intent === p.newer);
    expect(await mode.stripe.loseAnswers(() => approvePayout(admin.id, id))).toEqual({ status: "processing" });
    // As it was sent before the change: its leg and withdrawal in the metadata, no key.
    const [sent] = refundsOfNewer();
    delete sent!.metadata.refund_key;
    mode.stripe.forgetIdempotencyKeys();
    await settleOpenPayouts();
    expect((await legsOf(id)).map((l) => l.status)).toEqual(["completed"]);
    expect(refundsOfNewer().map((r) => r.id)).toEqual([sent!.id]);
  });

  it("waits while Stripe still works on a request with the same key (409): the refund is not held for review, the sweep sends it after", async () => {
    const admin = await gatedAdmin();
    const p = await buyer();
    const { id } = (await (await withdraw(p.cookie, 12)).json()) as { id: string };
    expect(await mode.stripe.keyInUse(() => approvePayout(admin.id, id))).toEqual({ status: "processing" });
    expect((await legsOf(id)).map((l) => l.status)).toEqual(["processing"]);
    expect((await db().user.findUniqueOrThrow({ where: { id: p.id } })).flaggedAt).toBeNull();
    await settleOpenPayouts();
    expect((await legsOf(id)).map((l) => l.status)).toEqual(["completed"]);
    expect([...mode.stripe.refunds.values()].filter((r) => r.payment_intent === p.newer).map((r) => r.amount)).toEqual([1200]);
  });

  it("holds a refund the provider refuses (refunded or disputed elsewhere) for support: nothing paid twice, nothing returned", async () => {
    const admin = await gatedAdmin();
    const p = await buyer();
    const { id } = (await (await withdraw(p.cookie, 10)).json()) as { id: string };
    const cash = (await userBalances(p.id)).cash;
    // The charge can no longer be refunded at the provider.
    mode.stripe.intents.get(p.newer)!.status = "canceled";
    expect(await approvePayout(admin.id, id)).toEqual({ status: "processing" });
    expect((await legsOf(id)).map((l) => l.status)).toEqual(["review"]);
    expect((await userBalances(p.id)).cash).toBe(cash);
    expect((await db().ledgerAccount.findFirstOrThrow({ where: { userId: p.id, kind: "withdrawal_hold" } })).balance).toBe(1000n);
    expect((await db().user.findUniqueOrThrow({ where: { id: p.id } })).flagReason).toMatch(/^refund of a withdrawal refused by the provider/);
    await settleOpenPayouts();
    expect((await legsOf(id)).map((l) => l.status)).toEqual(["review"]);
  });

  it("flags a dispute of cents already paid back to the card", async () => {
    const admin = await gatedAdmin();
    const p = await buyer();
    const { id } = (await (await withdraw(p.cookie, 24.99)).json()) as { id: string };
    await approvePayout(admin.id, id);
    const dispute = { id: "dp_overlap", object: "dispute", payment_intent: p.newer, amount: 2499 };
    expect((await deliverEvent("evt_dispute_overlap", "charge.dispute.created", dispute)).status).toBe(200);
    expect((await db().user.findUniqueOrThrow({ where: { id: p.id } })).flagReason).toBe(
      `dispute of ${p.newer} covers 2499 cents already refunded or disputed`,
    );
  });

  it("records no transfer for a flagged account, nor for the admin's own", async () => {
    const [admin, other] = [await gatedAdmin(), await gatedAdmin()];
    const p = await buyer(5_000n);
    await db().user.update({ where: { id: p.id }, data: { identityVerifiedAt: new Date() } });
    const { id } = (await (await withdraw(p.cookie, 40)).json()) as { id: string };
    await approvePayout(admin.id, id);
    await db().user.update({ where: { id: p.id }, data: { flaggedAt: new Date(), flagReason: "dispute of a payment" } });
    const refused = await call(`/api/admin/payouts/${id}/transfer`, { method: "POST", cookie: admin.cookie, json: { reference: "BANK-77" } });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: "The account is flagged for review: dispute of a payment: nothing is paid to it" });
    // Recording that it failed pays nothing and is allowed: the rest comes back as cash.
    const cashBefore = (await userBalances(p.id)).cash;
    expect(
      await (await call(`/api/admin/payouts/${id}/transfer`, { method: "POST", cookie: admin.cookie, json: { failure: "Account under review" } })).json(),
    ).toEqual({
      status: "failed",
    });
    expect((await userBalances(p.id)).cash - cashBefore).toBe(1002n);

    await grantCoins(admin.id, 5_000n, "cash");
    const own = (await (await withdraw(admin.cookie, 20)).json()) as { id: string };
    await approvePayout(other.id, own.id);
    expect((await call(`/api/admin/payouts/${own.id}/transfer`, { method: "POST", cookie: admin.cookie, json: { reference: "SELF-1" } })).status).toBe(403);
  });
});

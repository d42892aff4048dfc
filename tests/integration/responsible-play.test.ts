import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalance } from "~/models/money/ledger.server";
import { priceCoins } from "~/services/money/payments/pricing.server";
import { settlePayment } from "~/services/money/payments/settle.server";
import { startPayment } from "~/services/money/payments/start.server";
import { settleStalePayments } from "~/services/money/payments/sweep.server";
import { DEMO_SUCCESS_CARD, demoProvider } from "~/infra/payment-providers/demo-provider.server";
import { checkDeposit, excludeSelf, setDepositLimit } from "~/services/play-safety/responsible-play.server";
import { enterRaffle } from "~/services/raffles/raffles.server";
import { call, pageText, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser, potTotal } from "../support/factories";
import { codeOf } from "../support/outcomes";
import { listening } from "../support/listening";

async function paid(userId: string, cents: number, at: Date) {
  await db().payment.create({
    data: {
      userId,
      provider: "demo",
      providerPaymentId: `demo_${Math.random()}`,
      purpose: "coins",
      product: "package_2",
      amountCents: cents,
      status: "succeeded",
      settledAt: at,
    },
  });
}

describe("deposit limits", () => {
  it("applies a decrease at once and an increase only after 24 hours (the clock advanced in the test)", async () => {
    const p = await createTestUser();
    const now = new Date("2026-06-01T12:00:00Z");
    expect(await setDepositLimit(p.id, "week", 5000, now)).toMatchObject({ immediate: true });
    await paid(p.id, 4500, new Date(now.getTime() - 3600_000));
    expect(await codeOf(checkDeposit(p.id, 499, now))).toBe("ok");
    await expect(checkDeposit(p.id, 999, now)).rejects.toThrow(/7-day deposit limit of \$50\.00 \(\$45\.00 used\)\. It resets at 2026-06-08 11:00 UTC/);

    const raise = await setDepositLimit(p.id, "week", 20_000, now);
    expect(raise).toMatchObject({ immediate: false });
    expect(await codeOf(checkDeposit(p.id, 999, new Date(now.getTime() + 23 * 3600_000)))).toBe("deposit_limit");
    expect(await codeOf(checkDeposit(p.id, 999, new Date(now.getTime() + 24 * 3600_000 + 1)))).toBe("ok");

    expect(await setDepositLimit(p.id, "week", 1000, new Date(now.getTime() + 25 * 3600_000))).toMatchObject({ immediate: true });
    expect(await codeOf(checkDeposit(p.id, 99, new Date(now.getTime() + 25 * 3600_000)))).toBe("deposit_limit");
  });

  it("refuses a deposit over the limit before the payment provider is called", async () => {
    const p = await createTestUser();
    await setDepositLimit(p.id, "day", 100);
    const cookie = await sessionCookie(p.id);
    const response = await call("/api/create-payment-intent", { method: "POST", cookie, json: { packageId: "package_2" } });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { message: string }).message).toMatch(/24-hour deposit limit of \$1\.00/);
    expect(await db().payment.count({ where: { userId: p.id } })).toBe(0);
    expect(await db().demoPayment.count()).toBe(0);
  });

  it("checks purchases started at once one after another: with room for one, only one can ever be paid", async () => {
    const p = await createTestUser();
    await setDepositLimit(p.id, "day", 499);
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => codeOf(startPayment(p.id, priceCoins("package_2")!))));
    expect(outcomes).toContain("ok");
    expect(outcomes.every((outcome) => outcome === "ok" || outcome === "deposit_limit")).toBe(true);
    // The newest purchase wins: an older one still unpaid was canceled at the provider.
    const payable = await db().demoPayment.findMany({
      where: { status: "requires_payment", metadata: { path: ["userId"], equals: p.id } },
      select: { id: true },
    });
    expect(payable).toHaveLength(1);
    expect(await db().payment.findMany({ where: { userId: p.id, status: "pending" }, select: { providerPaymentId: true } })).toEqual([
      { providerPaymentId: payable[0]!.id },
    ]);
  });

  it("makes room for a new purchase by canceling the player's unpaid one (the newest wins); one already paid counts, and the refusal says so", async () => {
    const p = await createTestUser();
    await setDepositLimit(p.id, "day", 600);
    const looked = await startPayment(p.id, priceCoins("package_2")!);
    // Another package, another tab: the first card form is canceled, nothing was charged.
    const bought = await startPayment(p.id, priceCoins("package_2")!);
    expect(await demoProvider.getPayment(looked.paymentId)).toMatchObject({ status: "canceled" });
    expect(await db().payment.findUniqueOrThrow({ where: { providerPaymentId: looked.paymentId } })).toMatchObject({ status: "failed" });
    // Paid meanwhile (its confirmation not yet in): it is credited and counts.
    await demoProvider.payWithTestCard(bought.paymentId, DEMO_SUCCESS_CARD);
    await expect(startPayment(p.id, priceCoins("package_2")!)).rejects.toThrow(/24-hour deposit limit of \$6\.00 \(\$4\.99 used\)\. It resets at /);
    expect(await db().payment.findUniqueOrThrow({ where: { providerPaymentId: bought.paymentId } })).toMatchObject({ status: "succeeded" });
    expect(await userBalance(p.id)).toBe(600n);
  });

  it("holds an unfinished payment's amount until it finishes: the sweep cancels one left unpaid for 30 minutes, and credits one paid meanwhile", async () => {
    const p = await createTestUser();
    const now = new Date();
    const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
    await setDepositLimit(p.id, "day", 1000, now);
    const left = await startPayment(p.id, priceCoins("package_2")!, now);
    expect(await codeOf(checkDeposit(p.id, 501, now))).toBe("ok");
    expect(await codeOf(checkDeposit(p.id, 502, now))).toBe("deposit_limit");

    // At 29 minutes the card form may still be in use: it holds.
    await settleStalePayments(at(29));
    expect(await codeOf(checkDeposit(p.id, 502, at(29)))).toBe("deposit_limit");
    // At 31 it is canceled at the provider (nothing can be charged on it) and holds nothing.
    await settleStalePayments(at(31));
    expect(await demoProvider.getPayment(left.paymentId)).toMatchObject({ status: "canceled" });
    expect(await db().payment.findUniqueOrThrow({ where: { providerPaymentId: left.paymentId } })).toMatchObject({ status: "failed" });
    expect(await codeOf(checkDeposit(p.id, 1000, at(31)))).toBe("ok");

    // Paid while nobody confirmed it: the sweep credits it instead of canceling.
    const paidLate = await startPayment(p.id, priceCoins("package_2")!, at(31));
    await demoProvider.payWithTestCard(paidLate.paymentId, DEMO_SUCCESS_CARD);
    await settleStalePayments(at(62));
    expect(await db().payment.findUniqueOrThrow({ where: { providerPaymentId: paidLate.paymentId } })).toMatchObject({ status: "succeeded" });
    expect(await userBalance(p.id)).toBe(600n);
  });

  it("cancels nothing for a purchase that would not fit even without the player's unpaid payments", async () => {
    const p = await createTestUser();
    const now = new Date();
    await setDepositLimit(p.id, "day", 1000, now);
    await paid(p.id, 800, now);
    const open = await startPayment(p.id, priceCoins("package_1")!, now);
    await expect(startPayment(p.id, priceCoins("package_2")!, now)).rejects.toThrow(/\(\$8\.99 used, \$0\.99 of it in payments not yet finished\)/);
    expect(await demoProvider.getPayment(open.paymentId)).toMatchObject({ status: "requires_payment" });
  });

  it("flags for support, and does not credit by itself, a payment charged after it was marked failed", async () => {
    const p = await createTestUser();
    const { paymentId } = await startPayment(p.id, priceCoins("package_2")!);
    await db().payment.updateMany({
      where: { providerPaymentId: paymentId },
      data: { status: "failed", failureMessage: "Your card was declined.", settledAt: new Date() },
    });
    // Authorised and captured (a card is authorised first, then captured: ADR 080).
    await demoProvider.payWithTestCard(paymentId, DEMO_SUCCESS_CARD);
    await demoProvider.capturePayment(paymentId);
    expect(await settlePayment(paymentId)).toEqual({ status: "failed", message: "Please contact support if coins were not added." });
    expect(await db().user.findUniqueOrThrow({ where: { id: p.id }, select: { flagReason: true } })).toEqual({
      flagReason: `payment ${paymentId} was charged after it was marked failed`,
    });
    expect(await userBalance(p.id)).toBe(0n);
  });

  it("sweeps every stale payment, page after page", async () => {
    const p = await createTestUser();
    const now = new Date();
    const started = [];
    for (let i = 0; i < 5; i++) started.push(await startPayment(p.id, priceCoins("package_1")!, now));
    for (const { paymentId } of started) await demoProvider.payWithTestCard(paymentId, DEMO_SUCCESS_CARD);
    await settleStalePayments(new Date(now.getTime() + 3 * 60_000), 2);
    expect(await db().payment.count({ where: { userId: p.id, status: "succeeded" } })).toBe(5);
    expect(await userBalance(p.id)).toBe(500n);
  });

  it("gives up, after 10 minutes, a reservation the payment provider never named (the process died before it answered)", async () => {
    const p = await createTestUser();
    const now = new Date();
    const reservation = (id: string, minutesAgo: number) =>
      db().payment.create({
        data: {
          userId: p.id,
          provider: "demo",
          providerPaymentId: `reserved:${id}`,
          purpose: "coins",
          product: "package_2",
          amountCents: 499,
          createdAt: new Date(now.getTime() - minutesAgo * 60_000),
        },
      });
    await reservation(`${p.id}-old`, 11);
    await reservation(`${p.id}-recent`, 9);
    await settleStalePayments(now);
    const rows = await db().payment.findMany({ where: { userId: p.id }, orderBy: { createdAt: "asc" }, select: { status: true, failureMessage: true } });
    expect(rows).toEqual([
      { status: "failed", failureMessage: "The payment was not started." },
      { status: "pending", failureMessage: null },
    ]);
  });
});

describe("breaks and self-exclusion", () => {
  it("refuses entries, spins, claims and purchases on every path, allows withdrawals, and refunds open tickets once", async () => {
    const p = await createTestUser({ cash: 5000n, vipTier: "gold", vipExpiry: new Date(Date.now() + 86_400_000) });
    const other = await createTestUser({ coins: 1000n });
    const raffle = await createTestRaffle({ entryPrice: 100n });
    await enterRaffle({ userId: other.id, raffleId: raffle.id });
    await enterRaffle({ userId: p.id, raffleId: raffle.id, tickets: 3 });
    await enterRaffle({ userId: other.id, raffleId: raffle.id });
    expect(await userBalance(p.id)).toBe(4700n);
    const events = await listening("raffle_events");

    const { refunded } = await excludeSelf(p.id, "7d");
    expect(refunded).toBe(3);
    // Open pages drop the pot they heard with these tickets and read the raffle again.
    try {
      await events.hears("raffle_events", { type: "round", raffleId: raffle.id, kind: "regular", tier: "micro", ticketsTakenBack: true });
    } finally {
      await events.end();
    }
    expect(await userBalance(p.id)).toBe(5000n);
    const after = await db().raffle.findUniqueOrThrow({ where: { id: raffle.id }, include: { entries: { orderBy: { position: "asc" } } } });
    expect(after.entries.map((e) => [e.position, e.userId])).toEqual([
      [0, other.id],
      [1, other.id],
    ]);
    expect(after).toMatchObject({ ticketCount: 2, playerCount: 1 });
    expect(await potTotal(raffle.id)).toBe(200n);

    const cookie = await sessionCookie(p.id);
    const refusedWith = async (path: string, json: unknown = {}) => {
      const response = await call(path, { method: "POST", cookie, json });
      expect(response.status, path).toBe(403);
      expect(((await response.json()) as { message: string }).message).toMatch(/taking a break until/);
    };
    await refusedWith(`/api/raffles/${raffle.id}/enter`);
    await refusedWith("/api/daily-spin");
    await refusedWith("/api/vip/claim-daily-bonus");
    await refusedWith("/api/create-payment-intent", { packageId: "package_1" });
    await refusedWith("/api/vip/subscribe", { tier: "gold" });
    const page = await call("/checkout?package=package_1", {
      method: "POST",
      cookie,
      form: { intent: "demo-pay", cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" },
    });
    expect(page.status).toBe(302);
    expect(await userBalance(p.id)).toBe(5000n);

    const withdraw = await call("/api/withdraw", { method: "POST", cookie, json: { amount: 10, method: "venmo", accountInfo: "still-me" } });
    expect(withdraw.status).toBe(200);
    expect((await call("/api/auth/user", { cookie })).status).toBe(200);
  });

  it("charges the entry after a break's refund as any other (found by the model test: the positions came round again)", async () => {
    const resting = await createTestUser({ coins: 300n });
    const next = await createTestUser({ coins: 300n });
    const raffle = await createTestRaffle({ entryPrice: 50n });
    await enterRaffle({ userId: resting.id, raffleId: raffle.id });
    await excludeSelf(resting.id, "24h");
    expect(await userBalance(resting.id)).toBe(300n);

    // The refund renumbered the tickets, so this one is at position 0 again.
    expect(await enterRaffle({ userId: next.id, raffleId: raffle.id })).toMatchObject({ positions: [0], cost: 50n, balance: 250n });
    expect(await userBalance(next.id)).toBe(250n);
    expect(await potTotal(raffle.id)).toBe(50n);
  });

  it("cannot be shortened, only lengthened", async () => {
    const p = await createTestUser();
    await excludeSelf(p.id, "30d");
    expect(await codeOf(excludeSelf(p.id, "24h"))).toBe("excluded");
    expect(await codeOf(excludeSelf(p.id, "6m"))).toBe("ok");
    const user = await db().user.findUniqueOrThrow({ where: { id: p.id } });
    expect(user.exclusionKind).toBe("self_exclusion");
  });
});

/** The tag of the form control with this id, as rendered. */
function controlTag(page: string, id: string): string {
  const tag = page.match(new RegExp(`<(?:input|select)[^>]*\\bid="${id}"[^>]*>`))?.[0];
  expect(tag, id).toBeDefined();
  return tag!;
}

/** The field is marked invalid and points at its error, which says `message`. */
function expectFieldError(page: string, id: string, message: string) {
  const tag = controlTag(page, id);
  expect(tag).toContain('aria-invalid="true"');
  expect(tag).toContain(`aria-describedby="${id}-error"`);
  expect(page).toMatch(new RegExp(`<p id="${id}-error"[^>]*>${message.replace(/[.$()]/g, "\\$&")}</p>`));
}

describe("the responsible-play page's forms (conform: a refusal is a 4xx with the error beside the field)", () => {
  const post = (cookie: string, form: Record<string, string>) => call("/responsible-play", { method: "POST", cookie, form });

  it("refuses a limit that is not an amount beside that period's field, keeping what was typed, and saves nothing", async () => {
    const p = await createTestUser();
    const cookie = await sessionCookie(p.id);
    for (const amount of ["lots", "-5", "0", "99999999999", "10.005"]) {
      const refused = await post(cookie, { intent: "limit", period: "week", amount });
      expect(refused.status, amount).toBe(400);
      const page = await pageText(refused);
      expectFieldError(page, "limit-week-amount", "Enter a limit in dollars, like 50 or 25.50");
      expect(controlTag(page, "limit-week-amount")).toContain(`value="${amount}"`);
      // The other periods' forms are untouched.
      expect(controlTag(page, "limit-day-amount")).not.toContain("aria-invalid");
    }
    expect(await db().depositLimit.count({ where: { userId: p.id } })).toBe(0);
    expect(await db().auditEvent.count({ where: { actor: p.id } })).toBe(0);

    const saved = await post(cookie, { intent: "limit", period: "week", amount: "25.50" });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/responsible-play");
    expect(await db().depositLimit.findMany({ where: { userId: p.id }, select: { period: true, amountCents: true } })).toEqual([
      { period: "week", amountCents: 2550 },
    ]);
    // Blank removes it (after 24 hours, as any raise).
    expect((await post(cookie, { intent: "limit", period: "week", amount: "" })).status).toBe(302);
    expect(await db().depositLimit.findFirstOrThrow({ where: { userId: p.id } })).toMatchObject({ amountCents: 2550, pendingRemoval: true });
  });

  it("asks to confirm a break beside the box, and refuses an interval the reality check does not offer beside the select", async () => {
    const p = await createTestUser();
    const cookie = await sessionCookie(p.id);
    const unconfirmed = await post(cookie, { intent: "exclude", choice: "7d" });
    expect(unconfirmed.status).toBe(400);
    expectFieldError(await pageText(unconfirmed), "exclusion-confirm", "Please confirm");
    const odd = await post(cookie, { intent: "reality", minutes: "5" });
    expect(odd.status).toBe(400);
    expectFieldError(await pageText(odd), "reality-check-minutes", "Choose off, 15, 30 or 60 minutes");
    expect(await db().user.findUniqueOrThrow({ where: { id: p.id }, select: { excludedUntil: true, realityCheckMinutes: true } })).toEqual({
      excludedUntil: null,
      realityCheckMinutes: null,
    });
  });

  it("shows the service's refusal atop the form with its status: a break cannot be shortened", async () => {
    const p = await createTestUser();
    const cookie = await sessionCookie(p.id);
    await excludeSelf(p.id, "30d");
    const before = await db().user.findUniqueOrThrow({ where: { id: p.id }, select: { excludedUntil: true, exclusionKind: true } });
    const shorter = await post(cookie, { intent: "exclude", choice: "24h", confirm: "on" });
    expect(shorter.status).toBe(403);
    expect(await pageText(shorter)).toMatch(/<div role="alert"[^>]*>Your current break runs until [^<]* and cannot be shortened\.<\/div>/);
    expect(await db().user.findUniqueOrThrow({ where: { id: p.id }, select: { excludedUntil: true, exclusionKind: true } })).toEqual(before);
  });
});

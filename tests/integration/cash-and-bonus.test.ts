import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { houseAccountId, postTransaction, userAccountId, userBalances } from "~/models/money/ledger.server";
import { COIN_PACKAGES } from "~/shared/coin-packages";
import { drawDueRaffles, enterRaffle } from "~/services/raffles/raffles.server";
import { VIP_TIERS } from "~/shared/vip";
import { call, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";
import { setUpStripeMode } from "../support/stripe-mode";

/**
 * Cash and bonus coins (PRODUCT.md "Money"; ADR 017): what each movement credits and
 * spends of each, and the ledger's refusal to turn one into the other.
 */
const mode = setUpStripeMode();

async function buy(cookie: string, packageId: string) {
  const response = await call("/api/create-payment-intent", { method: "POST", cookie, json: { packageId } });
  const { paymentIntentId } = (await response.json()) as { paymentIntentId: string };
  mode.stripe.succeed(paymentIntentId);
  const confirmed = await call("/api/confirm-payment", { method: "POST", cookie, json: { paymentIntentId } });
  expect(confirmed.status).toBe(200);
  return paymentIntentId;
}

async function houseBalance(kind: "house_rake" | "promotions" | "card_deposits") {
  const account = await db().ledgerAccount.findUniqueOrThrow({ where: { id: await houseAccountId(kind) }, select: { balance: true } });
  return account.balance;
}

async function tickets(raffleId: string, userId: string) {
  return db().entry.findMany({ where: { raffleId, userId }, orderBy: { position: "asc" }, select: { cash: true, bonus: true } });
}

describe("cash and bonus coins", () => {
  it("credits each package's price in cents as cash and the rest as bonus; a VIP purchase bonus is bonus", async () => {
    for (const vip of [undefined, "gold", "diamond"] as const) {
      for (const pkg of COIN_PACKAGES) {
        const user = await createTestUser(vip ? { vipTier: vip, vipExpiry: new Date(Date.now() + 86_400_000) } : {});
        await buy(await sessionCookie(user.id), pkg.id);
        const vipBonus = vip ? (BigInt(pkg.coins) * BigInt(VIP_TIERS[vip].bonusPercent)) / 100n : 0n;
        expect(await userBalances(user.id), `${pkg.id} ${vip ?? "no VIP"}`).toEqual({
          cash: BigInt(pkg.priceCents),
          bonus: BigInt(pkg.coins - pkg.priceCents) + vipBonus,
        });
      }
    }
  });

  it("spends bonus coins first, then cash, and records each ticket's part of each", async () => {
    const player = await createTestUser({ cash: 10n, coins: 7n });
    const raffle = await createTestRaffle({ entryPrice: 5n });
    await enterRaffle({ userId: player.id, raffleId: raffle.id, tickets: 3 });
    expect(await userBalances(player.id)).toEqual({ cash: 2n, bonus: 0n });
    expect(await tickets(raffle.id, player.id)).toEqual([
      { cash: 0n, bonus: 5n },
      { cash: 3n, bonus: 2n },
      { cash: 5n, bonus: 0n },
    ]);
    const pots = await db().ledgerAccount.findMany({ where: { raffleId: raffle.id }, select: { kind: true, balance: true }, orderBy: { kind: "asc" } });
    expect(pots).toEqual([
      { kind: "raffle_pot", balance: 8n },
      { kind: "raffle_pot_bonus", balance: 7n },
    ]);
    // A later entry has only cash left to spend.
    const other = await createTestRaffle({ entryPrice: 2n });
    await enterRaffle({ userId: player.id, raffleId: other.id });
    expect(await tickets(other.id, player.id)).toEqual([{ cash: 2n, bonus: 0n }]);
    expect(await userBalances(player.id)).toEqual({ cash: 0n, bonus: 0n });
  });

  it("pays the prize in the pot's mix, the cash part rounded down, and gives the house the rest of each", async () => {
    // Pot 105: 70 cash (two tickets bought with cash), 35 bonus (one with bonus coins).
    const payer = await createTestUser({ cash: 70n });
    const bonusOnly = await createTestUser({ coins: 35n });
    const raffle = await createTestRaffle({ entryPrice: 35n });
    await enterRaffle({ userId: payer.id, raffleId: raffle.id, tickets: 2 });
    await enterRaffle({ userId: bonusOnly.id, raffleId: raffle.id });
    const rakeBefore = await houseBalance("house_rake");
    const promotionsBefore = await houseBalance("promotions");

    const outcome = (await drawDueRaffles(new Date(raffle.endsAt.getTime() + 1))).find((o) => o.raffleId === raffle.id);
    expect(outcome).toMatchObject({ outcome: "completed", prize: 52n, rake: 53n });
    // Prize 52: cash floor(52 × 70 / 105) = 34, bonus 18. The house: 36 cash, 17 bonus (back to promotions).
    const winner = outcome!.outcome === "completed" ? outcome!.winnerId : "";
    const loser = winner === payer.id ? bonusOnly.id : payer.id;
    expect(await userBalances(winner)).toEqual({ cash: 34n, bonus: 18n });
    expect(await userBalances(loser)).toEqual({ cash: 0n, bonus: 0n });
    expect((await houseBalance("house_rake")) - rakeBefore).toBe(36n);
    expect((await houseBalance("promotions")) - promotionsBefore).toBe(17n);
  });

  it("refunds each ticket in its own mix when a raffle is cancelled", async () => {
    const player = await createTestUser({ cash: 10n, coins: 7n });
    const raffle = await createTestRaffle({ entryPrice: 5n });
    await enterRaffle({ userId: player.id, raffleId: raffle.id, tickets: 3 });
    const outcome = (await drawDueRaffles(new Date(raffle.endsAt.getTime() + 1))).find((o) => o.raffleId === raffle.id);
    expect(outcome).toMatchObject({ outcome: "cancelled", refunded: 3 });
    expect(await userBalances(player.id)).toEqual({ cash: 10n, bonus: 7n });
  });

  it("takes back a refunded purchase's cash and the bonus that came with it", async () => {
    const user = await createTestUser();
    const paymentIntentId = await buy(await sessionCookie(user.id), "package_4");
    expect(await userBalances(user.id)).toEqual({ cash: 2499n, bonus: 2501n });
    const refund = JSON.stringify({
      id: "evt_refund_mix",
      object: "event",
      type: "charge.refunded",
      data: { object: { id: "ch_mix", object: "charge", payment_intent: paymentIntentId, amount_refunded: 2499 } },
    });
    expect((await mode.deliver(refund)).status).toBe(200);
    expect(await userBalances(user.id)).toEqual({ cash: 0n, bonus: 0n });
  });

  it("takes back only what a partial refund covers: its cents as cash and the payment's bonus in proportion, once", async () => {
    const user = await createTestUser();
    const paymentIntentId = await buy(await sessionCookie(user.id), "package_4");
    const refunded = (cents: number, event: string) =>
      mode.deliver(
        JSON.stringify({
          id: event,
          object: "event",
          type: "charge.refunded",
          data: { object: { id: "ch_partial", object: "charge", payment_intent: paymentIntentId, amount_refunded: cents } },
        }),
      );
    // $1.00 of $24.99: 100 cash and floor(2,501 × 100 / 2,499) = 100 bonus; repeats change nothing.
    expect((await refunded(100, "evt_partial_1")).status).toBe(200);
    expect((await refunded(100, "evt_partial_1")).status).toBe(200);
    expect(await userBalances(user.id)).toEqual({ cash: 2399n, bonus: 2401n });
    expect(await db().payment.findFirstOrThrow({ where: { providerPaymentId: paymentIntentId } })).toMatchObject({ status: "succeeded", refundedCents: 100 });

    // The player spends 2,500 coins (all their bonus first, then 99 cash); the rest of the refund
    // takes the cash left and flags the account for what is missing.
    const raffle = await createTestRaffle({ entryPrice: 2500n });
    await enterRaffle({ userId: user.id, raffleId: raffle.id });
    expect(await userBalances(user.id)).toEqual({ cash: 2300n, bonus: 0n });
    expect((await refunded(2499, "evt_partial_2")).status).toBe(200);
    expect(await userBalances(user.id)).toEqual({ cash: 0n, bonus: 0n });
    const payment = await db().payment.findFirstOrThrow({ where: { providerPaymentId: paymentIntentId } });
    expect(payment).toMatchObject({ status: "refunded", refundedCents: 2499 });
    // Due: 2,399 cash and the rest of the bonus, 2,401 (all 2,501 with the first 100); taken: 2,300 cash.
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).flagReason).toBe(`refund of ${paymentIntentId}: 2500 coins already spent`);
  });

  it("never credits a payment made in another currency than its price, and flags it for support", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookie(user.id);
    const response = await call("/api/create-payment-intent", { method: "POST", cookie, json: { packageId: "package_2" } });
    const { paymentIntentId } = (await response.json()) as { paymentIntentId: string };
    mode.stripe.intents.get(paymentIntentId)!.currency = "eur";
    mode.stripe.succeed(paymentIntentId);
    const confirmed = await call("/api/confirm-payment", { method: "POST", cookie, json: { paymentIntentId } });
    expect(confirmed.status).toBe(402);
    expect(await confirmed.json()).toEqual({ message: "Please contact support if coins were not added." });
    expect(await userBalances(user.id)).toEqual({ cash: 0n, bonus: 0n });
    expect(await db().payment.findFirstOrThrow({ where: { providerPaymentId: paymentIntentId } })).toMatchObject({
      status: "failed",
      failureMessage: "Currency mismatch",
    });
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).flagReason).toBe(
      `payment ${paymentIntentId} was made in eur, not usd: not credited`,
    );
  });

  it("refuses, in the database, any transaction that turns bonus coins into cash", async () => {
    const player = await createTestUser({ coins: 100n });
    const attempt = db().$transaction(async (tx) => {
      await postTransaction(tx, {
        kind: "bonus",
        reference: "bonus-to-cash",
        userId: player.id,
        postings: [
          { accountId: await userAccountId(tx, player.id, "user_bonus"), amount: -100n },
          { accountId: await userAccountId(tx, player.id), amount: 100n },
        ],
      });
    });
    await expect(attempt).rejects.toThrow(/moves -?100 coins between cash and bonus/);
    expect(await userBalances(player.id)).toEqual({ cash: 0n, bonus: 100n });
  });
});

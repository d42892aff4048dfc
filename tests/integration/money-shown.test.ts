import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { dashboard } from "~/services/back-office/admin.server";
import { priceCoins, priceVip, type Product } from "~/services/money/payments/pricing.server";
import { checkDeposit, depositLimits, setDepositLimit } from "~/services/play-safety/responsible-play.server";
import { call, pageText, sessionCookie } from "../support/app";
import { createTestUser, withdrawCash } from "../support/factories";
import { codeOf } from "../support/outcomes";
import { disputeEvent, refundEvent } from "../support/disputes";
import { payThrough, setUpStripeMode } from "../support/stripe-mode";

/**
 * Money shown as money (issue 17, item 6; PRODUCT.md "Records show money as money"): the
 * dollars charged, refunded and paid out, as opposed to coins, in the player's records,
 * their deposit limits and the back office. Stripe mode, so that refunds and disputes
 * arrive as Stripe sends them.
 */
const mode = setUpStripeMode();

const coins = (id: string) => priceCoins(id)!;
const vip = (tier: string) => priceVip(tier)!;

const pay = (userId: string, product: Product, at?: Date) => payThrough(mode, userId, product, at);

let disputes = 0;
/** Stripe's word that `cents` of the payment have been refunded so far, or that `cents` of it are disputed. */
async function reverse(paymentIntentId: string, reason: "refund" | "dispute", cents: number) {
  const payload =
    reason === "refund" ? refundEvent(paymentIntentId, cents) : disputeEvent("charge.dispute.created", `dp_money_${++disputes}`, paymentIntentId, cents);
  expect((await mode.deliver(payload)).status).toBe(200);
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
    expect(await pageText(await call("/responsible-play", { cookie: await sessionCookie(player.id) }))).toContain(
      "Used, payments in progress included: $34.98",
    );
  });
});

describe("the player's history shows money as money", () => {
  it("shows a purchase's dollars charged and coins credited, VIP charges by date, what a refund took back, and totals in dollars", async () => {
    const player = await createTestUser();
    const cookie = await sessionCookie(player.id);
    const bought = await pay(player.id, coins("package_4")); // $24.99: 2,499 cash + 2,501 bonus coins
    await pay(player.id, vip("bronze")); // $9.99, no coins
    // $10.00 refunded: 1,000 cash and floor(2,501 × 1,000 / 2,499) = 1,000 bonus coins taken back.
    await reverse(bought, "refund", 1000);
    await withdrawCash(player.id, 500n); // $5.00 withdrawn

    const page = await pageText(await call("/history", { cookie }));
    const rows = [...page.matchAll(/<tr data-testid="history-row">(.*?)<\/tr>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, "|"));
    const texts = rows.map((r) => r.split("|").filter(Boolean).slice(1).join(" | "));
    expect(texts).toEqual([
      "Withdrawal requested | −500 cash coins",
      "Purchase refunded: coins taken back | of a $24.99 purchase | −1,000 cash · −1,000 bonus coins",
      "VIP BRONZE membership (30 days) | $9.99 charged | no coins",
      "Coins bought | $24.99 charged · $10.00 refunded since | +2,499 cash · +2,501 bonus coins",
    ]);
    // Coins are never shown as dollars: the package's 5,000 coins are not "+$50.00".
    expect(page).not.toContain("$50.00");
    const totals = (await pageText(await call("/history", { cookie }))).match(/data-testid="history-totals">(.*?)<\/dl>/)![1]!.replace(/<[^>]+>/g, "|");
    // Charged $24.99 + $9.99 = $34.98, less $10.00 refunded: $24.98 bought; $5.00 withdrawn; $19.98 net.
    expect(totals.split("|").filter(Boolean)).toEqual([
      "Bought (charged, less refunds)",
      "$24.98",
      "$34.98 charged · $10.00 refunded · $0.00 disputed",
      "Withdrawn (paid out)",
      "$5.00",
      "Net deposits",
      "$19.98",
    ]);

    // The VIP charge is a purchase: shown under deposits, not under entries.
    expect(await pageText(await call("/history?type=deposits", { cookie }))).toContain("VIP BRONZE membership");
    expect(await pageText(await call("/history?type=withdrawals", { cookie }))).not.toContain("VIP BRONZE membership");

    const csv = (await (await call("/history.csv", { cookie })).text()).trim().split("\n");
    expect(csv[0]).toBe("date,type,charged_usd,refunded_or_disputed_usd,coins,cash_coins,bonus_coins,withdrawal,raffle");
    expect(csv.slice(1).map((line) => line.split(",").slice(1).join(","))).toEqual([
      "Withdrawal requested,,,-500,-500,0,,",
      "Purchase refunded: coins taken back,,,-2000,-1000,-1000,,",
      "VIP BRONZE membership (30 days),9.99,,0,0,0,,",
      "Coins bought,24.99,10.00,5000,2499,2501,,",
    ]);
  });

  it("names a dispute, and shows a VIP charge's refund on its row", async () => {
    const player = await createTestUser();
    const cookie = await sessionCookie(player.id);
    const bought = await pay(player.id, coins("package_2")); // $4.99: 499 cash + 101 bonus coins
    const membership = await pay(player.id, vip("silver")); // $19.99
    await reverse(bought, "dispute", 499);
    await reverse(membership, "refund", 1999);
    const page = await pageText(await call("/history", { cookie }));
    expect(page).toContain("Purchase disputed: coins taken back");
    expect(page).toMatch(/of a \$4\.99 purchase<\/td><td[^>]*>−499 cash · −101 bonus coins/);
    expect(page).toContain("$19.99 charged · $19.99 refunded since");
    // $4.99 + $19.99 charged, all of it taken back.
    expect(page).toContain("$24.98 charged · $19.99 refunded · $4.99 disputed");
    expect(page).toMatch(/Net deposits<\/dt><dd[^>]*>\$0\.00/);
  });
});

describe("the back office's money", () => {
  /** A dashboard figure in cents ("-12.34" → -1234). */
  const cents = (dollars: string) => (dollars.startsWith("-") ? -1 : 1) * Number(dollars.replace(/[-.]/g, ""));
  /** The dashboard's money figures, in cents and coins, for comparing before and after. */
  async function figures(now: Date) {
    const d = await dashboard(now);
    return {
      revenue: cents(d.overview.totalRevenue),
      charged: cents(d.overview.totalCharged),
      refunded: cents(d.overview.totalRefunded),
      disputed: cents(d.overview.totalDisputed),
      payouts: cents(d.overview.totalPayouts),
      profit: cents(d.overview.totalProfits),
      daily: cents(d.revenue.daily),
      weekly: cents(d.revenue.weekly),
      monthly: cents(d.revenue.monthly),
      playerCash: cents(d.liabilities.playerCash),
      held: cents(d.liabilities.heldForWithdrawals),
      bonusCoins: d.liabilities.playerBonusCoins,
    };
  }
  const minus = (a: Record<string, number>, b: Record<string, number>) => Object.fromEntries(Object.keys(a).map((k) => [k, a[k]! - b[k]!]));

  it("counts revenue as dollars charged for coins and VIP less refunds and disputes, payouts from the ledger, profit as the difference, and what players are owed", async () => {
    const now = new Date();
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
    const before = await figures(now);

    const a = await createTestUser();
    const b = await createTestUser();
    const c = await createTestUser();
    await pay(a.id, coins("package_4"), now); //                 today: $24.99 → 2,499 cash + 2,501 bonus
    const disputed = await pay(a.id, coins("package_2"), now); // today: $4.99 → 499 cash + 101 bonus
    await pay(b.id, vip("gold"), daysAgo(3)); //                  3 days ago: $39.99, no coins
    const refunded = await pay(c.id, coins("package_3"), daysAgo(20)); // 20 days ago: $9.99 → 999 cash + 501 bonus
    await pay(c.id, coins("package_1"), daysAgo(40)); //          40 days ago: $0.99 → 99 cash + 1 bonus
    await reverse(disputed, "dispute", 499); //   all $4.99: takes back 499 cash + 101 bonus
    await reverse(refunded, "refund", 400); //    $4.00 of $9.99: takes back 400 cash + floor(501 × 400 / 999) = 200 bonus
    await withdrawCash(a.id, 1000n); //                     $10.00 paid out
    await withdrawCash(a.id, 500n, { paidOut: false }); //  $5.00 held for a withdrawal not yet paid

    expect(minus(await figures(now), before)).toEqual({
      charged: 2499 + 499 + 3999 + 999 + 99, //  $80.95
      refunded: 400,
      disputed: 499,
      revenue: 8095 - 400 - 499, //             $71.96: the VIP charge included
      payouts: 1000,
      profit: 7196 - 1000, //                   $61.96
      daily: 2499 + 499 - 499, //               $24.99: today's charges, less the dispute of one of them
      weekly: 2499 + 3999, //                   $64.98: and the VIP charge of 3 days ago
      monthly: 6498 + 999 - 400, //             $70.97: and the $9.99 of 20 days ago, less its $4.00 refund
      // Cash owed: a 2,499 + 499 − 499 − 1,000 = 1,499 (500 of it held); c 999 − 400 + 99 = 698.
      playerCash: 1499 + 698,
      held: 500,
      // Bonus coins: a 2,501 + 101 − 101; c 501 − 200 + 1.
      bonusCoins: 2501 + 302,
    });
  });

  it("serves the figures on /api/admin/dashboard with the spec's fields, and on /admin", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const cookie = await sessionCookie(admin.id);
    await db().session.updateMany({ where: { userId: admin.id }, data: { adminGatePassedAt: new Date() } });
    const json = (await (await call("/api/admin/dashboard", { cookie })).json()) as Awaited<ReturnType<typeof dashboard>>;
    const expected = await dashboard();
    expect(json.overview).toEqual({ ...expected.overview, totalUsers: json.overview.totalUsers });
    expect(json.overview).toMatchObject({
      totalRevenue: expect.any(String),
      totalProfits: expect.any(String),
      activeRaffles: expect.any(Number),
      totalUsers: expect.any(Number),
    });
    expect(json.revenue).toEqual(expected.revenue);
    expect(json.liabilities).toEqual(expected.liabilities);
    expect(json.payouts).toHaveProperty("pendingAmount");
    const page = await pageText(await call("/admin/payouts", { cookie }));
    expect(page).toContain(
      `Profit (revenue − paid out)</dt><dd class="text-xl font-bold break-words" data-testid="overview-value">$${expected.overview.totalProfits}`,
    );
    expect(page).toContain(`Paid out</dt><dd class="text-xl font-bold break-words" data-testid="overview-value">$${expected.overview.totalPayouts}`);
  });
});

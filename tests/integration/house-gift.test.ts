import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { houseAccountId, userBalances } from "~/models/money/ledger.server";
import { drawDueRaffles, enterRaffle } from "~/services/raffles/raffles.server";
import { call, cookiesFrom, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser, grantCoins, potTotal } from "../support/factories";
import { codeOf } from "../support/outcomes";

/**
 * Issue 31, item 5 (PRODUCT.md "The multiplier's extra is a gift of the house", "Staff do
 * not play"): a 2x winner takes half the pot in its own mix and the extra in bonus coins
 * from promotions, so half of the pot's cash stays with the house; admin accounts cannot enter.
 */
const balanceOf = async (kind: "house_rake" | "promotions") =>
  (await db().ledgerAccount.findUniqueOrThrow({ where: { id: await houseAccountId(kind) }, select: { balance: true } })).balance;

describe("a 2x win", () => {
  it("pays as cash half the pot's cash, and the extra as bonus from promotions", async () => {
    const future = new Date(Date.now() + 86_400_000);
    // Both Diamond (2x), so whoever wins, the rule is the same. One holds a bonus ticket; the
    // other paid 2,470 of card money (and 530 bonus) for three.
    const [bonusPlayer, cardPlayer] = await Promise.all([
      createTestUser({ coins: 1000n, vipTier: "diamond", vipExpiry: future }),
      createTestUser({ coins: 530n, cash: 2470n, vipTier: "diamond", vipExpiry: future }),
    ]);
    const raffle = await createTestRaffle({ entryPrice: 1000n, maxTicketsPerPlayer: 10 });
    await enterRaffle({ userId: bonusPlayer.id, raffleId: raffle.id, tickets: 1 });
    await enterRaffle({ userId: cardPlayer.id, raffleId: raffle.id, tickets: 3 });
    expect(await potTotal(raffle.id)).toBe(4000n);
    const before = { rake: await balanceOf("house_rake"), promotions: await balanceOf("promotions") };

    const [outcome] = (await drawDueRaffles(new Date(raffle.endsAt.getTime() + 1))).filter((o) => o.raffleId === raffle.id);
    expect(outcome).toMatchObject({ outcome: "completed", prize: 4000n, rake: 2000n });
    if (outcome?.outcome !== "completed") throw new Error("not drawn");
    // Base prize 2,000 in the pot's mix: 1,235 cash (half of 2,470) and 765 bonus; extra 2,000 bonus.
    expect(await userBalances(outcome.winnerId)).toEqual({ cash: 1235n, bonus: 765n + 2000n });
    expect(await balanceOf("house_rake")).toBe(before.rake + 1235n);
    expect(await balanceOf("promotions")).toBe(before.promotions + 765n - 2000n);
    expect(await db().raffle.findUniqueOrThrow({ where: { id: raffle.id }, select: { prize: true, rake: true, prizeExtra: true, finalPot: true } })).toEqual({
      prize: 4000n,
      rake: 2000n,
      prizeExtra: 2000n,
      finalPot: 4000n,
    });
  });
});

describe("staff do not play", () => {
  it("refuses an admin's entry on every path, moving nothing", async () => {
    const admin = await createTestUser({ isAdmin: true, coins: 1000n });
    const cookie = await sessionCookie(admin.id);
    const raffle = await createTestRaffle({ entryPrice: 5n });
    const quick = await createTestRaffle({ kind: "quick", tier: "lightning", entryPrice: 5n });

    expect(await codeOf(enterRaffle({ userId: admin.id, raffleId: raffle.id }))).toBe("staff");
    const api = await call(`/api/raffles/${raffle.id}/enter`, { method: "POST", cookie });
    expect(api.status).toBe(403);
    expect(await api.json()).toEqual({ message: "Admin accounts do not play: staff cannot enter raffles." });
    expect((await call(`/api/quick-raffles/${quick.id}/enter`, { method: "POST", cookie })).status).toBe(403);
    // The card's form, with or without JavaScript: back to the page, which says why.
    const form = await call(`/raffles/${raffle.id}/enter`, {
      method: "POST",
      cookie,
      form: {},
      headers: { Accept: "text/html", Referer: "http://localhost/" },
    });
    expect(form.status).toBe(302);
    const page = await (await call("/", { cookie: `${cookie}; ${cookiesFrom(form)}` })).text();
    expect(page).toContain("Admin accounts do not play");

    // Many at once: none gets through (past the entry rate limit, the answer is 429).
    const parallel = await Promise.all(Array.from({ length: 10 }, () => call(`/api/raffles/${raffle.id}/enter`, { method: "POST", cookie })));
    expect(new Set(parallel.map((r) => r.status))).toEqual(new Set([403, 429]));

    expect(await db().entry.count({ where: { userId: admin.id } })).toBe(0);
    expect(await userBalances(admin.id)).toEqual({ cash: 0n, bonus: 1000n });
    expect(await potTotal(raffle.id)).toBe(0n);
    expect(await potTotal(quick.id)).toBe(0n);
  });

  it("still lets a player enter (the rule names admins only)", async () => {
    const player = await createTestUser({ coins: 10n });
    await grantCoins(player.id, 5n);
    const raffle = await createTestRaffle({ entryPrice: 5n });
    expect(await codeOf(enterRaffle({ userId: player.id, raffleId: raffle.id }))).toBe("ok");
  });
});

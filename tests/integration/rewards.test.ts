import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalance, userBalances } from "~/models/money/ledger.server";
import { claimVipIn, spinIn } from "~/models/rewards/daily-reward.server";
import { getEnv } from "~/infra/env.server";
import { placesServed } from "~/shared/jurisdictions";
import { getLeaderboard, getRecentWinners, getStats, listRaffles, utcWeekStart } from "~/services/raffles/raffle-views.server";
import { drawDueRaffles, enterRaffle } from "~/services/raffles/raffles.server";
import { claimVipDailyBonus, spinStatus, spinWheel } from "~/services/rewards/rewards.server";
import { createTestRaffle, createTestUser } from "../support/factories";
import { codeOf } from "../support/outcomes";

describe("the daily spin", () => {
  it("pays a configured reward once per 24 hours, also when 20 spins arrive at once", async () => {
    const player = await createTestUser();
    const now = new Date("2026-03-10T12:00:00Z");
    const prizes = [5, 10, 25, 50];
    expect(await spinStatus(player.id, now)).toEqual({ canSpin: true, nextSpinTime: now, lastReward: null, prizes });
    const results = await Promise.all(Array.from({ length: 20 }, () => codeOf(spinWheel(player.id, now))));
    expect(results.filter((r) => r === "ok")).toHaveLength(1);
    expect(results.filter((r) => r !== "ok").every((r) => r === "spin_not_ready")).toBe(true);
    const balance = await userBalance(player.id);
    expect([5n, 10n, 25n, 50n]).toContain(balance);

    const later = new Date(now.getTime() + 23 * 3600_000);
    // The wheel rests on the reward won, which is what the ledger paid.
    expect(await spinStatus(player.id, later)).toEqual({
      canSpin: false,
      nextSpinTime: new Date(now.getTime() + 86_400_000),
      lastReward: Number(balance),
      prizes,
    });
    expect(await codeOf(spinWheel(player.id, later))).toBe("spin_not_ready");
    const nextDay = new Date(now.getTime() + 86_400_000);
    expect(await codeOf(spinWheel(player.id, nextDay))).toBe("ok");
  });

  it("spins only with the membership its reward was drawn with: one changed since is told, and nothing is paid", async () => {
    const player = await createTestUser({ vipTier: "gold", vipExpiry: new Date("2026-04-01T00:00:00Z") });
    const now = new Date("2026-03-10T12:00:00Z");
    const spin = { userId: player.id, reward: 50n, now, intervalMs: 86_400_000 };
    const places = placesServed(getEnv().ALLOWED_COUNTRIES);
    // Drawn while the player was not a member (or a member until another time).
    expect(await spinIn(spin, places, { vipTier: null, vipExpiry: null })).toMatchObject({ outcome: "changed" });
    expect(await spinIn(spin, places, { vipTier: "gold", vipExpiry: new Date("2026-03-11T00:00:00Z") })).toMatchObject({ outcome: "changed" });
    expect(await userBalances(player.id)).toEqual({ cash: 0n, bonus: 0n });
    expect(await db().dailySpin.count({ where: { userId: player.id } })).toBe(0);

    expect(await spinIn(spin, places, { vipTier: "gold", vipExpiry: new Date("2026-04-01T00:00:00Z") })).toEqual({
      outcome: "spun",
      at: now,
      exclusionKind: null,
    });
    expect(await userBalances(player.id)).toEqual({ cash: 0n, bonus: 50n });
    // Its audit event and its ledger transaction, as the app wrote them before.
    expect(await db().auditEvent.findFirst({ where: { actor: player.id, action: "spin" }, select: { target: true, details: true } })).toEqual({
      target: `user:${player.id}`,
      details: { reward: "50" },
    });
    expect(await db().ledgerTransaction.count({ where: { userId: player.id, kind: "spin_reward", reference: { startsWith: "spin:" } } })).toBe(1);
  });
});

describe("the VIP daily bonus", () => {
  it("is refused without an active VIP tier", async () => {
    const player = await createTestUser();
    const lapsed = await createTestUser({ vipTier: "gold", vipExpiry: new Date(Date.now() - 1000) });
    expect(await codeOf(claimVipDailyBonus(player.id))).toBe("not_vip");
    expect(await codeOf(claimVipDailyBonus(lapsed.id))).toBe("not_vip");
    expect(await userBalance(player.id)).toBe(0n);
  });

  it("pays the tier's coins once per UTC day, also when 20 claims arrive at once", async () => {
    const now = new Date("2026-03-10T23:59:00Z");
    const vip = await createTestUser({ vipTier: "gold", vipExpiry: new Date("2026-04-01T00:00:00Z") });
    const results = await Promise.all(Array.from({ length: 20 }, () => codeOf(claimVipDailyBonus(vip.id, now))));
    expect(results.filter((r) => r === "ok")).toHaveLength(1);
    expect(results.filter((r) => r !== "ok").every((r) => r === "already_claimed")).toBe(true);
    expect(await userBalance(vip.id)).toBe(30n);
    // Two minutes later it is another UTC day.
    expect(await claimVipDailyBonus(vip.id, new Date("2026-03-11T00:01:00Z"))).toEqual({ amount: 30n });
    expect(await userBalance(vip.id)).toBe(60n);
  });

  it("pays only the membership it was read with: one changed since is told, and nothing is paid", async () => {
    const vip = await createTestUser({ vipTier: "gold", vipExpiry: new Date("2026-04-01T00:00:00Z") });
    const now = new Date("2026-03-10T12:00:00Z");
    const claim = { userId: vip.id, day: new Date("2026-03-10T00:00:00Z"), now, amount: 30n };
    const places = placesServed(getEnv().ALLOWED_COUNTRIES);
    // Read while the player was not a member (or a member of another tier).
    expect(await claimVipIn(claim, places, { vipTier: null, vipExpiry: null })).toMatchObject({ outcome: "changed" });
    expect(await claimVipIn(claim, places, { vipTier: "silver", vipExpiry: new Date("2026-04-01T00:00:00Z") })).toMatchObject({ outcome: "changed" });
    expect(await userBalances(vip.id)).toEqual({ cash: 0n, bonus: 0n });
    expect(await db().vipDailyClaim.count({ where: { userId: vip.id } })).toBe(0);

    expect(await claimVipIn(claim, places, { vipTier: "gold", vipExpiry: new Date("2026-04-01T00:00:00Z") })).toEqual({
      outcome: "claimed",
      at: now,
      exclusionKind: null,
    });
    expect(await userBalances(vip.id)).toEqual({ cash: 0n, bonus: 30n });
    expect(await db().vipDailyClaim.findFirst({ where: { userId: vip.id }, select: { day: true, tier: true, amount: true } })).toEqual({
      day: new Date("2026-03-10T00:00:00Z"),
      tier: "gold",
      amount: 30n,
    });
    // Its audit event and its ledger transaction, as the app wrote them before.
    expect(await db().auditEvent.findFirst({ where: { actor: vip.id, action: "vip.daily_bonus" }, select: { target: true, details: true } })).toEqual({
      target: `user:${vip.id}`,
      details: { tier: "gold", amount: "30" },
    });
    expect(await db().ledgerTransaction.count({ where: { userId: vip.id, kind: "bonus", reference: `vip-daily:${vip.id}:2026-03-10` } })).toBe(1);
  });
});

describe("the read side", () => {
  it("lists raffles in the spec's shapes, reports true stats, winners and the weekly leaderboard", async () => {
    const [a, b] = await Promise.all([createTestUser({ coins: 10_000n }), createTestUser({ coins: 10_000n })]);
    const raffle = await createTestRaffle({ entryPrice: 250n, tier: "low" });
    await enterRaffle({ userId: a.id, raffleId: raffle.id, tickets: 2 });
    await enterRaffle({ userId: b.id, raffleId: raffle.id });

    const listed = (await listRaffles("regular", { userId: a.id })).find((r) => r.id === raffle.id);
    expect(listed).toMatchObject({
      tier: "low",
      entryPrice: "2.50",
      currentPot: "7.50",
      participantCount: 2,
      ticketCount: 3,
      status: "active",
      // In the round with another player: the prize if it were drawn now, half the pot.
      couldWin: "3.75",
      couldWinNow: true,
      myTickets: 2,
    });
    expect(listed!.timeRemaining).toBeGreaterThan(3500);
    // Not in it yet: half the pot with their ticket in (the spec's estimate); a VIP's multiplier included.
    const outsider = (await listRaffles("regular", { userId: randomUUID() })).find((r) => r.id === raffle.id);
    expect(outsider).toMatchObject({ couldWin: "5.00", couldWinNow: false, myTickets: 0 });
    const gold = { vipTier: "gold" as const, vipExpiry: new Date(Date.now() + 86_400_000) };
    const vipListed = (await listRaffles("regular", { userId: a.id, vip: gold })).find((r) => r.id === raffle.id);
    expect(vipListed).toMatchObject({ couldWin: "4.87", couldWinNow: true });
    const lapsed = { vipTier: "gold" as const, vipExpiry: new Date(Date.now() - 1) };
    expect((await listRaffles("regular", { userId: a.id, vip: lapsed })).find((r) => r.id === raffle.id)).toMatchObject({ couldWin: "3.75" });

    const before = await getStats();
    expect(before.totalPlayers).toBeGreaterThanOrEqual(2);

    const after = new Date(raffle.endsAt.getTime() + 1);
    const [outcome] = (await drawDueRaffles(after)).filter((o) => o.raffleId === raffle.id);
    expect(outcome?.outcome).toBe("completed");
    const winners = await getRecentWinners(after);
    expect(winners[0]).toMatchObject({ raffleId: raffle.id, amount: "$3.75", entryAmount: "$2.50", timeAgo: "0s ago" });
    const board = await getLeaderboard(after);
    expect(board[0]).toMatchObject({ totalWins: 1, totalWinnings: "$3.75" });
  });

  it("starts the leaderboard week on Monday 00:00 UTC", () => {
    expect(utcWeekStart(new Date("2026-11-21T15:00:00Z")).toISOString()).toBe("2026-11-16T00:00:00.000Z");
    expect(utcWeekStart(new Date("2026-11-16T00:00:00Z")).toISOString()).toBe("2026-11-16T00:00:00.000Z");
    expect(utcWeekStart(new Date("2026-11-22T23:59:59Z")).toISOString()).toBe("2026-11-16T00:00:00.000Z");
  });
});

describe("rewards racing the same player's entries", () => {
  it("a spin and a VIP bonus claimed while the player enters do not deadlock: every call answers, coins add up", async () => {
    // The rewards lock the player's row and then their account; an entry locks the account
    // and then, inserting its tickets, takes a key-share lock on the player's row.
    for (let round = 0; round < 3; round++) {
      const players = await Promise.all(
        Array.from({ length: 6 }, () => createTestUser({ coins: 10_000n, vipTier: "gold", vipExpiry: new Date(Date.now() + 86_400_000) })),
      );
      const raffle = await createTestRaffle({ entryPrice: 5n, maxTicketsPerPlayer: 1_000 });
      const calls = await Promise.all([
        ...players.flatMap((p) => Array.from({ length: 10 }, () => codeOf(enterRaffle({ userId: p.id, raffleId: raffle.id })))),
        ...players.flatMap((p) => [codeOf(spinWheel(p.id)), codeOf(claimVipDailyBonus(p.id))]),
      ]);
      expect(calls.filter((code) => code !== "ok")).toEqual([]);
    }
  });
});

import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalances } from "~/models/money/ledger.server";
import { drawDueRaffles } from "~/services/raffles/raffles.server";
import { crowdTick, ensureCrowd, newCrowd, type Crowd } from "~/services/raffles/demo-crowd.server";
import { getLeaderboard, getRecentWinners } from "~/services/raffles/raffle-views.server";
import { DEMO_CROWD_TOP_UP_COINS, DEMO_WELCOME_COINS, grantDemoCrowdTopUp } from "~/services/rewards/rewards.server";
import { listUsers } from "~/services/back-office/admin.server";
import { createTestRaffle, createTestUser } from "../support/factories";
import { raffleProblems } from "../support/money-invariants";

/**
 * Issue 33, item 4 (ADR 074): the demo crowd's players sign up through the sign-up service,
 * marked demo, and enter raffles through enterRaffle, so every rule and the ledger hold for
 * them as for people, also when two passes run at once. (The ledger's balance is checked
 * after every test by tests/support/database-setup.ts.)
 */
const allDue = (crowd: Crowd) => {
  for (const member of crowd.members) member.nextAt = 0;
};

async function ticketsPerPlayer(raffleIds: string[]) {
  return db().$queryRaw<{ userId: string; raffleId: string; tickets: number }[]>`
    SELECT user_id::text AS "userId", raffle_id::text AS "raffleId", count(*)::int AS tickets
    FROM entries WHERE raffle_id = ANY(${raffleIds}::uuid[]) GROUP BY user_id, raffle_id`;
}

describe("the demo crowd", () => {
  it("signs up once, marked demo and named, with the welcome bonus from promotions, even when two starts race", async () => {
    const [a, b] = [newCrowd(4, 1), newCrowd(4, 1)];
    await Promise.all([ensureCrowd(a), ensureCrowd(b)]);
    // A start that lost a race for an address picks the player up on its next try.
    const later = new Date(Date.now() + 60_000);
    await Promise.all([ensureCrowd(a, later), ensureCrowd(b, later)]);
    const users = await db().user.findMany({
      where: { email: { endsWith: "@demo-crowd.invalid" } },
      select: { id: true, username: true, isDemo: true, isAdmin: true },
    });
    expect(users).toHaveLength(4);
    expect(new Set(a.members.map((m) => m.userId))).toEqual(new Set(users.map((u) => u.id)));
    expect(new Set(b.members.map((m) => m.userId))).toEqual(new Set(users.map((u) => u.id)));
    for (const user of users) {
      expect(user).toMatchObject({ isDemo: true, isAdmin: false });
      expect(user.username).toMatch(/^[A-Za-z]+\d+$/);
      expect(await userBalances(user.id)).toEqual({ cash: 0n, bonus: DEMO_WELCOME_COINS });
    }
    // Their addresses are nobody's: no verification mail is queued for them.
    expect(await db().emailOutbox.count({ where: { userId: { in: users.map((u) => u.id) } } })).toBe(0);
    // The back office marks them.
    const listed = (await listUsers("demo-crowd.invalid", 0)).users;
    expect(listed.map((u) => u.isDemo)).toEqual([true, true, true, true]);
  });

  it("enters each due player once when two passes run at once, and never past a raffle's cap", async () => {
    const quick = await createTestRaffle({ kind: "quick", tier: "lightning", entryPrice: 5n, maxTicketsPerPlayer: 1 });
    const regular = await createTestRaffle({ kind: "regular", tier: "micro", entryPrice: 5n, maxTicketsPerPlayer: 1 });
    const crowd = newCrowd(6, 1);
    await ensureCrowd(crowd);
    allDue(crowd);
    const [one, two] = await Promise.all([crowdTick(crowd), crowdTick(crowd)]);
    // One pass took every due player; the other found none left to act.
    expect(one.entered + one.refused + two.entered + two.refused).toBe(6);
    expect(crowd.members.every((m) => !m.busy && m.nextAt > Date.now())).toBe(true);

    // Two crowds over the same players (as if two processes ran it), all due, several times.
    const other = newCrowd(6, 1);
    await ensureCrowd(other);
    for (let round = 0; round < 3; round++) {
      allDue(crowd);
      allDue(other);
      await Promise.all([crowdTick(crowd), crowdTick(other), crowdTick(crowd)]);
    }
    const rows = await ticketsPerPlayer([quick.id, regular.id]);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.tickets).toBe(1);
    expect(await raffleProblems([quick.id, regular.id])).toEqual([]);
    // Every ticket a crowd player holds is a real ledger entry: the pots hold what they paid.
    for (const member of crowd.members) {
      const tickets = rows.filter((r) => r.userId === member.userId).length;
      expect((await userBalances(member.userId)).bonus).toBe(DEMO_WELCOME_COINS - 5n * BigInt(tickets));
    }
  });

  it("wins raffles that name it as demo in the winners, the leaderboard and the card feeds", async () => {
    const raffle = await createTestRaffle({ kind: "quick", tier: "bolt", entryPrice: 10n, maxTicketsPerPlayer: 1, endsAt: new Date(Date.now() + 60_000) });
    const crowd = newCrowd(6, 1);
    await ensureCrowd(crowd);
    // Until two of them are in this raffle (each pass may pick another raffle).
    for (let pass = 0; pass < 50 && (await db().entry.groupBy({ by: ["userId"], where: { raffleId: raffle.id } })).length < 2; pass++) {
      allDue(crowd);
      await crowdTick(crowd);
    }
    const [outcome] = (await drawDueRaffles(new Date(raffle.endsAt.getTime() + 1))).filter((o) => o.raffleId === raffle.id);
    expect(outcome?.outcome).toBe("completed");
    const winners = await getRecentWinners();
    expect(winners.find((w) => w.raffleId === raffle.id)).toMatchObject({ isDemo: true });
    expect((await getLeaderboard()).some((row) => row.isDemo)).toBe(true);
    // Nobody reads a demo player's mail: the win sends none.
    expect(await db().emailOutbox.count({ where: { user: { isDemo: true } } })).toBe(0);
  });

  it("tops up a demo player from promotions once an hour however many ask at once, and never a real player", async () => {
    const crowd = newCrowd(1, 1);
    await ensureCrowd(crowd);
    const { userId } = crowd.members[0]!;
    const now = new Date();
    const before = (await userBalances(userId)).bonus;
    const granted = await Promise.all(Array.from({ length: 5 }, () => grantDemoCrowdTopUp(userId, now)));
    expect(granted.filter(Boolean)).toHaveLength(1);
    expect((await userBalances(userId)).bonus).toBe(before + DEMO_CROWD_TOP_UP_COINS);
    const person = await createTestUser({ coins: 0n });
    expect(await grantDemoCrowdTopUp(person.id, now)).toBe(false);
    expect(await userBalances(person.id)).toEqual({ cash: 0n, bonus: 0n });
  });
});

import { randomBytes } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { db } from "~/models/db.server";
import { userBalance } from "~/models/money/ledger.server";
import { enterRaffles } from "~/models/raffles/raffle.server";
import { createSessionRow } from "~/models/accounts/session.server";
import { slidingWindow } from "~/services/system/rate-limit.server";
import { merkleRoot, winningTicket } from "~/services/fairness/draw-math.server";
import { drawDueRaffles, enterRaffle } from "~/services/raffles/raffles.server";
import { excludeSelf } from "~/services/play-safety/responsible-play.server";
import { spinWheel } from "~/services/rewards/rewards.server";
import { BALANCED, ledgerInvariants, raffleProblems } from "../support/money-invariants";
import { createTestRaffle, createTestUser, potTotal } from "../support/factories";
import { codeOf } from "../support/outcomes";
import { heldTransaction } from "../support/held-transaction";
import { listening } from "../support/listening";

/** Entries share batches and draws run many raffles per transaction (docs/decisions/009-entries-and-draws-in-bulk.md). */

describe("entries arriving together", () => {
  it("answers each entry of a mixed burst by its own rules, and only the accepted ones move coins", async () => {
    const now = new Date();
    const [open, other, vipOnly] = await Promise.all([
      createTestRaffle({ entryPrice: 5n, maxTicketsPerPlayer: 100 }),
      createTestRaffle({ entryPrice: 25n, maxTicketsPerPlayer: 2 }),
      createTestRaffle({ vipOnly: true }),
    ]);
    const closed = await createTestRaffle({ startsAt: new Date(now.getTime() - 60_000), endsAt: new Date(now.getTime() - 1) });
    const players = await Promise.all(Array.from({ length: 20 }, () => createTestUser({ coins: 1000n })));
    const poor = await createTestUser({ coins: 4n });
    const attempts: [string, Promise<string>][] = [
      ...players.flatMap((p) => [
        ["ok", codeOf(enterRaffle({ userId: p.id, raffleId: open.id }))] as [string, Promise<string>],
        ["ok", codeOf(enterRaffle({ userId: p.id, raffleId: other.id, tickets: 2 }))] as [string, Promise<string>],
      ]),
      ["over_ticket_cap", codeOf(enterRaffle({ userId: players[0]!.id, raffleId: other.id, tickets: 3 }))],
      ["vip_only", codeOf(enterRaffle({ userId: players[1]!.id, raffleId: vipOnly.id }))],
      ["raffle_closed", codeOf(enterRaffle({ userId: players[2]!.id, raffleId: closed.id }))],
      ["raffle_not_found", codeOf(enterRaffle({ userId: players[3]!.id, raffleId: open.id, kind: "quick" }))],
      ["insufficient_coins", codeOf(enterRaffle({ userId: poor.id, raffleId: open.id }))],
      ["user_not_found", codeOf(enterRaffle({ userId: "00000000-0000-4000-8000-000000000001", raffleId: open.id }))],
    ];
    const results = await Promise.all(attempts.map(([, result]) => result));
    expect(results).toEqual(attempts.map(([expected]) => expected));
    for (const p of players) expect(await userBalance(p.id)).toBe(1000n - 5n - 50n);
    expect(await userBalance(poor.id)).toBe(4n);
    const pots = await Promise.all([open.id, other.id, vipOnly.id, closed.id].map(async (id) => [id, await potTotal(id)]));
    expect(Object.fromEntries(pots)).toEqual({
      [open.id]: 100n,
      [other.id]: 1000n,
      [vipOnly.id]: 0n,
      [closed.id]: 0n,
    });
    const positions = await db().entry.findMany({ where: { raffleId: other.id }, orderBy: { position: "asc" }, select: { position: true } });
    expect(positions.map((e) => e.position)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(await db().auditEvent.count({ where: { action: "raffle.enter", target: { in: [`raffle:${open.id}`, `raffle:${other.id}`] } } })).toBe(40);
  });

  it("takes entries from sessions in batches from two instances at once: no deadlock, every hit counted once", async () => {
    const raffles = await Promise.all(Array.from({ length: 3 }, () => createTestRaffle({ entryPrice: 5n, maxTicketsPerPlayer: 1_000 })));
    const players = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const user = await createTestUser({ coins: 100_000n });
        const sessionHash = randomBytes(32).toString("hex");
        await createSessionRow({ tokenHash: sessionHash, userId: user.id, expiresAt: new Date(Date.now() + 60_000) });
        return { ...user, sessionHash };
      }),
    );
    const now = new Date();
    const window = slidingWindow({ name: "test-enter", max: 1_000, windowSeconds: 60 }, now);
    const rules = { limitName: "test-enter", limitMax: 1_000, playIdleGapMs: 30 * 60_000, countries: ["GB"], regions: [], verifyCountries: [] };
    // Each instance sends its own batches (the queue is per process): the same players and
    // raffles, in opposite orders, forty batches at once.
    const batch = (reversed: boolean) => {
      const entries = players.flatMap((p, i) => raffles.map((_, j) => ({ p, r: raffles[(i + j) % raffles.length]! })));
      return (reversed ? entries.reverse() : entries).map(({ p, r }) => ({
        sessionHash: p.sessionHash,
        raffleId: r.id,
        tickets: 1,
        now,
        window: { start: window.start, previous: window.previous, overlap: window.overlap },
      }));
    };
    const results = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => enterRaffles(batch(i % 2 === 1), rules)));
    expect(results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    const outcomes = results.flatMap((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof enterRaffles>>>).value.map((row) => row.outcome));
    expect(new Set(outcomes)).toEqual(new Set(["ok"]));
    for (const p of players) {
      const bucket = await db().rateLimitBucket.findUniqueOrThrow({ where: { key_windowStart: { key: `test-enter:${p.id}`, windowStart: window.start } } });
      expect(bucket.count).toBe(40 * raffles.length);
      expect(await userBalance(p.id)).toBe(100_000n - 5n * 40n * BigInt(raffles.length));
    }
    expect(await ledgerInvariants()).toEqual(BALANCED);
  });

  it("decides the entries of one batch in order, each seeing the coins, tickets and hits of those before it", async () => {
    const raffle = await createTestRaffle({ entryPrice: 5n, maxTicketsPerPlayer: 3 });
    const other = await createTestRaffle({ entryPrice: 1n, maxTicketsPerPlayer: 10 });
    const [a, b, c, d] = await Promise.all([
      createTestUser({ coins: 15n }),
      createTestUser({ coins: 100n }),
      createTestUser({ coins: 100n }),
      createTestUser({ coins: 100n }),
    ]);
    const cSession = randomBytes(32).toString("hex");
    await createSessionRow({ tokenHash: cSession, userId: c.id, expiresAt: new Date(Date.now() + 10 * 60_000) });
    // d's entries straddle a window boundary: 10 s into the next 60 s window, 5/6 of the
    // previous one still counts.
    const limit = { name: "test-batch", max: 4, windowSeconds: 60 };
    const boundary = Math.ceil(Date.now() / 60_000) * 60_000 + 60_000;
    const now = new Date(boundary - 20_000);
    const later = new Date(now.getTime() + 30_000);
    const rules = { limitName: limit.name, limitMax: limit.max, playIdleGapMs: 30 * 60_000, countries: ["GB"], regions: [], verifyCountries: [] };
    const entry = (who: { userId: string } | { sessionHash: string }, raffleId: string, tickets = 1, at = now) => {
      const w = slidingWindow(limit, at);
      return { ...who, raffleId, tickets, now: at, window: { start: w.start, previous: w.previous, overlap: w.overlap } };
    };

    const listener = await listening("raffle_events", "read_model");
    try {
      const rows = await enterRaffles(
        [
          entry({ userId: a.id }, raffle.id, 2), // positions 0-1, 5 coins left
          entry({ userId: b.id }, raffle.id), // position 2
          entry({ userId: a.id }, raffle.id, 2), // over the cap of 3
          entry({ userId: a.id }, other.id, 6), // 6 coins: one more than a has
          entry({ userId: a.id }, raffle.id), // position 3: a's last 5 coins
          entry({ userId: a.id }, other.id), // a's fifth hit in the window: refused, and counted
          entry({ sessionHash: cSession }, raffle.id), // position 4, c through a session
          entry({ sessionHash: randomBytes(32).toString("hex") }, raffle.id), // an unknown session
          entry({ userId: d.id }, other.id, 1), // d: 4 hits in this window, the most it takes…
          entry({ userId: d.id }, other.id, 1),
          entry({ userId: d.id }, other.id, 1),
          entry({ userId: d.id }, other.id, 1),
          entry({ userId: d.id }, other.id, 1, later), // …so 1 + 4 × 5/6 > 4 in the next one
        ],
        rules,
      );
      expect(rows.map((r) => [r.outcome, r.firstPosition, r.cost, r.balance, r.cap])).toEqual([
        ["ok", 0, 10n, 5n, null],
        ["ok", 2, 5n, 95n, null],
        ["over_ticket_cap", null, null, null, 3],
        ["insufficient_coins", null, null, null, null],
        ["ok", 3, 5n, 0n, null],
        ["rate_limited", null, null, null, null],
        ["ok", 4, 5n, 95n, null],
        ["signed_out", null, null, null, null],
        ["ok", 0, 1n, 99n, null],
        ["ok", 1, 1n, 98n, null],
        ["ok", 2, 1n, 97n, null],
        ["ok", 3, 1n, 96n, null],
        ["rate_limited", null, null, null, null],
      ]);
      // Each accepted entry answers with its raffle's figures after it (ADR 101), and its
      // player (ADR 103): its instance moves the pot on its lists and forgets their tickets.
      expect(rows.map((r) => (r.outcome === "ok" ? [r.raffleKind, r.rafflePot, r.raffleTickets, r.rafflePlayers, r.entrantId] : null))).toEqual([
        ["regular", 10n, 2, 1, a.id],
        ["regular", 15n, 3, 2, b.id],
        null,
        null,
        ["regular", 20n, 4, 2, a.id],
        null,
        ["regular", 25n, 5, 3, c.id],
        null,
        ["regular", 1n, 1, 1, d.id],
        ["regular", 2n, 2, 1, d.id],
        ["regular", 3n, 3, 1, d.id],
        ["regular", 4n, 4, 1, d.id],
        null,
      ]);
      expect(rows.filter((r) => r.outcome !== "ok").map((r) => r.entrantId)).toEqual(Array(5).fill(null));
      await listener.client.query("SELECT announce('raffle_events', 'marker')");
      await vi.waitFor(() => expect(listener.payloads("raffle_events")).toContain("marker"));
    } finally {
      await listener.end();
    }
    // One pot event per raffle, with its figures after the batch.
    const pots = listener
      .payloads("raffle_events")
      .filter((h) => h !== "marker")
      .map((h) => JSON.parse(h) as { raffleId: string });
    expect(pots).toEqual(
      expect.arrayContaining([
        { type: "pot", raffleId: raffle.id, kind: "regular", currentPot: "0.25", participantCount: 3, ticketCount: 5 },
        { type: "pot", raffleId: other.id, kind: "regular", currentPot: "0.04", participantCount: 1, ticketCount: 4 },
      ]),
    );
    expect(pots).toHaveLength(2);
    // One notification names the batch's entrants, each once (ADR 103).
    const tickets = listener.payloads("read_model").filter((t) => t.startsWith("tickets:"));
    expect(tickets).toHaveLength(1);
    expect(tickets[0]!.slice(8).split(",").sort()).toEqual([a.id, b.id, c.id, d.id].sort());

    const after = await db().raffle.findUniqueOrThrow({ where: { id: raffle.id } });
    expect([after.ticketCount, after.playerCount]).toEqual([5, 3]);
    const entries = await db().entry.findMany({ where: { raffleId: raffle.id }, orderBy: { position: "asc" } });
    expect(entries.map((e) => [e.position, e.userId])).toEqual([
      [0, a.id],
      [1, a.id],
      [2, b.id],
      [3, a.id],
      [4, c.id],
    ]);
    expect(await potTotal(raffle.id)).toBe(25n);
    expect(await userBalance(a.id)).toBe(0n);
    const bucket = async (userId: string, at: Date) =>
      (
        await db().rateLimitBucket.findUniqueOrThrow({
          where: { key_windowStart: { key: `test-batch:${userId}`, windowStart: slidingWindow(limit, at).start } },
        })
      ).count;
    expect([await bucket(a.id, now), await bucket(d.id, now), await bucket(d.id, later)]).toEqual([5, 4, 1]);
    // One ledger transaction per accepted entry, named by its first ticket, and one audit row each.
    const transactions = await db().ledgerTransaction.findMany({ where: { raffleId: raffle.id, kind: "entry" } });
    expect(new Set(transactions.map((t) => t.reference))).toEqual(
      new Set([0, 2, 3, 4].map((position) => `entry:${raffle.id}:${entries.find((e) => e.position === position)!.id}`)),
    );
    const audit = await db().auditEvent.findMany({ where: { action: "raffle.enter", target: `raffle:${raffle.id}` } });
    expect(audit.map((e) => (e.details as { positions: number[] }).positions).sort()).toEqual([[0, 1], [2], [3], [4]]);
    expect(await ledgerInvariants()).toEqual(BALANCED);
  });

  it("refuses a batch that asks for no tickets as a bug, and moves nothing", async () => {
    const raffle = await createTestRaffle({ entryPrice: 5n });
    const player = await createTestUser({ coins: 100n });
    const rules = { limitName: "test-batch", limitMax: 10, playIdleGapMs: 30 * 60_000, countries: ["GB"], regions: [], verifyCountries: [] };
    await expect(enterRaffles([{ userId: player.id, raffleId: raffle.id, tickets: 0, now: new Date() }], rules)).rejects.toThrow(/asks for 0 tickets/);
    expect(await userBalance(player.id)).toBe(100n);
    expect(await db().entry.count({ where: { raffleId: raffle.id } })).toBe(0);
  });

  it("keeps one generic plan a connection for its statements, not a new plan at every call (ADR 112)", async () => {
    const [row] = await db().$queryRaw<{ config: string[] | null }[]>`SELECT proconfig AS config FROM pg_proc WHERE proname = 'enter_raffles'`;
    expect(row?.config).toContain("plan_cache_mode=force_generic_plan");
  });

  it("does not wait for a raffle being drawn: its late entries are refused as closed, the rest of the batch goes on", async () => {
    const ended = await createTestRaffle({ startsAt: new Date(Date.now() - 60_000), endsAt: new Date(Date.now() - 1_000) });
    const open = await createTestRaffle({ entryPrice: 5n });
    const player = await createTestUser({ coins: 100n });
    const rules = { limitName: "test-batch", limitMax: 10, playIdleGapMs: 30 * 60_000, countries: ["GB"], regions: [], verifyCountries: [] };
    // A draw holds the ended raffle and its pots until it commits.
    const draw = await heldTransaction();
    try {
      await draw.client.query("SELECT 1 FROM raffles WHERE id = $1 FOR UPDATE", [ended.id]);
      await draw.client.query("SELECT 1 FROM ledger_accounts WHERE raffle_id = $1 FOR UPDATE", [ended.id]);
      const now = new Date();
      // Answered while the draw still holds its raffle (it would wait for the draw otherwise).
      const rows = await enterRaffles(
        [
          { userId: player.id, raffleId: ended.id, tickets: 1, now },
          { userId: player.id, raffleId: open.id, tickets: 1, now },
        ],
        rules,
      );
      expect(rows.map((r) => r.outcome)).toEqual(["raffle_closed", "ok"]);
    } finally {
      await draw.end();
    }
    expect(await userBalance(player.id)).toBe(95n);
    expect(await db().entry.count({ where: { raffleId: ended.id } })).toBe(0);
  });

  it("charges an entry that takes the position a refunded break left free", async () => {
    const raffle = await createTestRaffle({ entryPrice: 10n, maxTicketsPerPlayer: 10 });
    const [leaver, stayer, newcomer] = await Promise.all([createTestUser({ coins: 100n }), createTestUser({ coins: 100n }), createTestUser({ coins: 100n })]);
    await enterRaffle({ userId: stayer.id, raffleId: raffle.id });
    await enterRaffle({ userId: leaver.id, raffleId: raffle.id, tickets: 2 });
    await excludeSelf(leaver.id, "7d");
    // The refund closed the gap: the next ticket takes position 1 again.
    const entry = await enterRaffle({ userId: newcomer.id, raffleId: raffle.id });
    expect(entry.positions).toEqual([1]);
    expect(await userBalance(newcomer.id)).toBe(90n);
    expect(await potTotal(raffle.id)).toBe(20n);
    const drawn = (await drawDueRaffles(new Date(raffle.endsAt.getTime() + 1))).find((o) => o.raffleId === raffle.id);
    expect(drawn).toMatchObject({ outcome: "completed", prize: 10n, rake: 10n });
  });
});

describe("many raffles ending together", () => {
  it("draws each once, in batches, with the winner the published draw names, and refunds the lonely ones", async () => {
    const players = await Promise.all(Array.from({ length: 6 }, () => createTestUser({ coins: 100_000n })));
    const raffles = await Promise.all(Array.from({ length: 230 }, () => createTestRaffle({ entryPrice: 3n, maxTicketsPerPlayer: 10 })));
    const lonely = new Set(raffles.filter((_, i) => i % 10 === 0).map((r) => r.id));
    await Promise.all(
      raffles.flatMap((raffle, i) =>
        (lonely.has(raffle.id) ? [players[0]!] : [players[i % 6]!, players[(i + 1) % 6]!, players[(i + 2) % 6]!]).map((p, k) =>
          enterRaffle({ userId: p.id, raffleId: raffle.id, tickets: k + 1 }),
        ),
      ),
    );
    const after = new Date(Math.max(...raffles.map((r) => r.endsAt.getTime())) + 1);
    const outcomes = (await Promise.all([drawDueRaffles(after, { batchSize: 40 }), drawDueRaffles(after, { batchSize: 40 })])).flat();
    const ids = new Set(raffles.map((r) => r.id));
    const mine = outcomes.filter((o) => ids.has(o.raffleId));
    expect(mine).toHaveLength(230);
    expect(new Set(mine.map((o) => o.raffleId)).size).toBe(230);

    const rows = await db().raffle.findMany({
      where: { id: { in: [...ids] } },
      select: { id: true, status: true, seed: true, merkleRoot: true, winningTicket: true, winnerId: true, prize: true, rake: true, finalPot: true },
    });
    let prizes = 0n;
    for (const row of rows) {
      if (lonely.has(row.id)) {
        expect(row.status).toBe("cancelled");
        continue;
      }
      const tickets = await db().entry.findMany({
        where: { raffleId: row.id },
        orderBy: { position: "asc" },
        select: { id: true, position: true, userId: true },
      });
      const root = merkleRoot(
        row.id,
        tickets.map((t) => ({ position: t.position, ticketId: t.id })),
      );
      const ticket = winningTicket(row.seed, row.id, root, tickets.length);
      expect(row).toMatchObject({ status: "completed", merkleRoot: root, winningTicket: ticket, winnerId: tickets[ticket]!.userId, finalPot: 18n });
      expect(row.prize! + row.rake!).toBe(18n);
      prizes += row.prize!;
    }
    // Players won several raffles in one batch: their winnings add up.
    const totals = await db().user.findMany({ where: { id: { in: players.map((p) => p.id) } }, select: { totalWinnings: true } });
    expect(totals.reduce((sum, u) => sum + u.totalWinnings, 0n)).toBe(prizes);
    expect(await userBalance(players[0]!.id)).toBeGreaterThan(0n);
    const refunds = await db().ledgerTransaction.count({ where: { kind: "refund", raffleId: { in: [...lonely] } } });
    expect(refunds).toBe(lonely.size);
    expect(
      await db().auditEvent.count({ where: { action: { in: ["raffle.draw", "raffle.cancel"] }, target: { in: [...ids].map((id) => `raffle:${id}`) } } }),
    ).toBe(230);
  });

  it("holds a batch to its tickets: raffles past them wait for the next batch, and each is drawn once", async () => {
    const players = await Promise.all(Array.from({ length: 2 }, () => createTestUser({ coins: 10_000n })));
    const raffles = await Promise.all(Array.from({ length: 5 }, () => createTestRaffle({ entryPrice: 1n, maxTicketsPerPlayer: 10 })));
    for (const raffle of raffles) for (const p of players) await enterRaffle({ userId: p.id, raffleId: raffle.id, tickets: 2 });
    const ids = raffles.map((r) => r.id);
    const after = new Date(Math.max(...raffles.map((r) => r.endsAt.getTime())) + 1);
    // Four tickets a raffle, at most ten a batch: two of them a batch, however many raffles it may take.
    const outcomes = (await drawDueRaffles(after, { batchSize: 50, batchTickets: 10 })).filter((o) => ids.includes(o.raffleId));
    expect(outcomes.map((o) => o.outcome)).toEqual(Array(5).fill("completed"));
    expect(new Set(outcomes.map((o) => o.raffleId)).size).toBe(5);
    // The batches, told apart by the transaction that wrote their prizes.
    const batches = await db().$queryRaw<{ raffles: number; tickets: number }[]>`
      SELECT count(*)::int AS raffles, sum(ticket_count)::int AS tickets FROM (
        SELECT DISTINCT t.xmin::text AS batch, r.id, r.ticket_count
        FROM ledger_transactions t JOIN raffles r ON r.id = t.raffle_id
        WHERE t.kind IN ('prize', 'refund') AND t.xmin::text IN (
          SELECT xmin::text FROM ledger_transactions WHERE kind = 'prize' AND raffle_id = ANY(${ids}::uuid[]))
      ) drawn GROUP BY batch`;
    expect(batches.length).toBeGreaterThanOrEqual(3);
    for (const batch of batches) expect(batch.raffles === 1 || batch.tickets <= 10).toBe(true);
  });
});

describe("draws racing the same players' entries and rewards", () => {
  it("draws many small batches at once while the winners enter and spin: no deadlock, each raffle once, the ledger balanced", async () => {
    const players = await Promise.all(Array.from({ length: 6 }, () => createTestUser({ coins: 100_000n })));
    const ending = await Promise.all(Array.from({ length: 60 }, () => createTestRaffle({ entryPrice: 5n, maxTicketsPerPlayer: 10 })));
    const after = new Date(Math.max(...ending.map((r) => r.endsAt.getTime())) + 1);
    const open = await createTestRaffle({ entryPrice: 5n, maxTicketsPerPlayer: 1_000, endsAt: new Date(after.getTime() + 3_600_000) });
    await Promise.all(ending.flatMap((raffle, i) => [players[i % 6]!, players[(i + 1) % 6]!].map((p) => enterRaffle({ userId: p.id, raffleId: raffle.id }))));

    // Two instances draw two raffles per transaction, three transactions each, while the
    // same players enter another raffle and spin the wheel (which locks the player first).
    const results = await Promise.allSettled([
      drawDueRaffles(after, { batchSize: 2, workers: 3 }),
      drawDueRaffles(after, { batchSize: 2, workers: 3 }),
      ...players.flatMap((p) => Array.from({ length: 10 }, () => enterRaffle({ userId: p.id, raffleId: open.id }))),
      ...players.map((p) => spinWheel(p.id)),
    ]);
    expect(results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);

    const drawn = results.slice(0, 2).flatMap((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof drawDueRaffles>>>).value);
    const ids = new Set(ending.map((r) => r.id));
    expect(
      drawn
        .filter((o) => ids.has(o.raffleId))
        .map((o) => o.raffleId)
        .sort(),
    ).toEqual([...ids].sort());
    expect(await db().entry.count({ where: { raffleId: open.id } })).toBe(60);
    expect(await raffleProblems([...ids, open.id])).toEqual([]);
    expect(await ledgerInvariants()).toEqual(BALANCED);
  });
});

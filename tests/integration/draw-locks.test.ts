import { describe, expect, it, vi } from "vitest";
import { db } from "~/models/db.server";
import { houseAccountId } from "~/models/money/ledger.server";
import { playersForDraw } from "~/models/raffles/draw.server";
import { drawDueRaffles, enterRaffle } from "~/services/raffles/raffles.server";
import { BALANCED, ledgerInvariants } from "../support/money-invariants";
import { createTestRaffle, createTestUser } from "../support/factories";
import { heldTransaction } from "../support/held-transaction";
import { listening } from "../support/listening";

/**
 * A draw batch waits for another transaction only at the rows they share, just before its
 * postings (docs/decisions/107-draw-batches-wait-only-at-their-postings.md).
 */

describe("a draw batch and the transactions beside it", () => {
  it("does not wait at its start for a winner's balance another transaction is changing, and opens the accounts a winner lacks", async () => {
    // Bonus coins only: the player has a bonus account and no cash account yet.
    const winner = await createTestUser({ coins: 100n });
    const other = await heldTransaction();
    try {
      // An entry, a spin or another batch's postings, not yet committed.
      await other.client.query("UPDATE ledger_accounts SET balance = balance WHERE user_id = $1 AND kind = 'user_bonus'", [winner.id]);
      const players = await db().$transaction(async (tx) => {
        // Checking an existing account for a conflict would wait for the other transaction's end.
        await tx.$executeRaw`SET LOCAL lock_timeout = '5s'`;
        return playersForDraw(tx, [winner.id]);
      });
      const accounts = await db().ledgerAccount.findMany({ where: { userId: winner.id }, select: { id: true, kind: true } });
      expect(players).toHaveLength(1);
      expect(new Set([players[0]!.account, players[0]!.bonusAccount])).toEqual(new Set(accounts.map((a) => a.id)));
      expect(accounts.map((a) => a.kind).sort()).toEqual(["user", "user_bonus"]);
    } finally {
      await other.end();
    }
  });

  it("has written its notices and its winners' messages when it waits for the house's accounts", async () => {
    const players = await Promise.all([createTestUser({ coins: 100n }), createTestUser({ coins: 100n })]);
    const raffle = await createTestRaffle({ entryPrice: 5n });
    for (const player of players) await enterRaffle({ userId: player.id, raffleId: raffle.id });
    const other = await heldTransaction();
    let drawing: ReturnType<typeof drawDueRaffles> | undefined;
    try {
      await other.client.query("SELECT 1 FROM ledger_accounts WHERE id = $1 FOR UPDATE", [await houseAccountId("house_rake")]);
      drawing = drawDueRaffles(new Date(raffle.endsAt.getTime() + 1), { workers: 1 });
      // Looked at from outside any transaction: within one, pg_stat_activity stays as first read.
      const waiting = await vi.waitFor(
        async () => {
          const rows = await db().$queryRaw<{ pid: number }[]>`
            SELECT pid FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE%'`;
          expect(rows).toHaveLength(1);
          return rows[0]!.pid;
        },
        { timeout: 10_000, interval: 20 },
      );
      const rows = await db().$queryRaw<{ relname: string }[]>`
        SELECT c.relname::text FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
        WHERE l.pid = ${waiting} AND l.mode = 'RowExclusiveLock' AND c.relname IN ('outcome_notices', 'email_outbox', 'ledger_postings')`;
      // Written (the tables' write locks are held), and no posting yet.
      expect(rows.map((r) => r.relname).sort()).toEqual(["email_outbox", "outcome_notices"]);
    } finally {
      await other.end();
    }
    const outcomes = await drawing!;
    expect(outcomes.find((o) => o.raffleId === raffle.id)?.outcome).toBe("completed");
    expect(await db().outcomeNotice.count({ where: { raffleId: raffle.id } })).toBe(1);
    expect(await ledgerInvariants()).toEqual(BALANCED);
  });
});

describe("a draw's announcements", () => {
  it("forget the winner's sessions before the winner's pages are told to ask for their news", async () => {
    const players = await Promise.all([createTestUser({ coins: 100n }), createTestUser({ coins: 100n })]);
    const raffle = await createTestRaffle({ entryPrice: 5n });
    for (const player of players) await enterRaffle({ userId: player.id, raffleId: raffle.id });
    // Both channels on one connection, as an instance hears them: in the order they were sent.
    const listener = await listening("raffle_events", "read_model");
    try {
      const outcomes = await drawDueRaffles(new Date(raffle.endsAt.getTime() + 1), { workers: 1 });
      const outcome = outcomes.find((o) => o.raffleId === raffle.id);
      if (outcome?.outcome !== "completed") throw new Error(`expected a winner, got ${JSON.stringify(outcome)}`);
      const { winnerId } = outcome;
      const { heard } = listener;
      const notice = () => heard.findIndex((h) => h.channel === "raffle_events" && h.payload.includes('"notice"') && h.payload.includes(winnerId));
      await vi.waitFor(() => expect(notice()).toBeGreaterThanOrEqual(0));
      const forgotten = heard.findIndex((h) => h.channel === "read_model" && h.payload === `account:${winnerId}`);
      expect(forgotten).toBeGreaterThanOrEqual(0);
      expect(forgotten).toBeLessThan(notice());
    } finally {
      await listener.end();
    }
  });
});

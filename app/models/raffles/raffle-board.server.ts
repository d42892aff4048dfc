import type { Raffle, RaffleKind, User } from "~/generated/prisma/client";
import { db } from "../db.server";
import type { PageCursor } from "~/shared/page-cursor";

/** Active raffles with their pots (the pot is the pot account's balance), including those not started yet. */
export async function listActiveRaffles(kind: RaffleKind) {
  return db().$queryRaw<
    (Pick<
      Raffle,
      "id" | "tier" | "entryPrice" | "playerCount" | "ticketCount" | "startsAt" | "endsAt" | "status" | "vipOnly" | "maxTicketsPerPlayer" | "seedHash"
    > & { pot: bigint; closedEarlyRound: number | null })[]
  >`
    SELECT r.id::text AS id, r.tier, r.entry_price AS "entryPrice", a.balance + b.balance AS pot,
           CASE WHEN r.closed_at IS NOT NULL THEN r.beacon_round::float8 END AS "closedEarlyRound",
           r.player_count AS "playerCount", r.ticket_count AS "ticketCount", r.starts_at AS "startsAt",
           r.ends_at AS "endsAt", r.status, r.vip_only AS "vipOnly",
           r.max_tickets_per_player AS "maxTicketsPerPlayer", r.seed_hash AS "seedHash"
    FROM raffles r
    JOIN ledger_accounts a ON a.raffle_id = r.id AND a.kind = 'raffle_pot'
    JOIN ledger_accounts b ON b.raffle_id = r.id AND b.kind = 'raffle_pot_bonus'
    WHERE r.kind = ${kind}::"RaffleKind" AND r.status = 'active'
    ORDER BY r.entry_price, r.ends_at`;
}

export async function recentWinners(kind: RaffleKind | undefined, limit: number) {
  return db().raffle.findMany({
    where: { ...(kind ? { kind } : {}), status: "completed" },
    orderBy: { drawnAt: "desc" },
    take: limit,
    select: {
      id: true,
      tier: true,
      prize: true,
      entryPrice: true,
      drawnAt: true,
      winner: { select: { username: true, firstName: true, isDemo: true } },
    },
  });
}

export async function stats(now: Date, dayStart: Date) {
  // The day's players: one probe of entries(user_id, created_at) per player, so the cost
  // follows the players, not the day's entries (a busy day holds millions; issue 36).
  const [row] = await db().$queryRaw<{ players: bigint; pots: bigint; winners: bigint }[]>`
    SELECT
      (SELECT count(*) FROM users u WHERE EXISTS (SELECT 1 FROM entries e
         WHERE e.user_id = u.id AND e.created_at > ${new Date(now.getTime() - 86_400_000)})) AS players,
      (SELECT coalesce(sum(a.balance), 0)::bigint FROM raffles r JOIN ledger_accounts a ON a.raffle_id = r.id
         WHERE r.status = 'active') AS pots,
      (SELECT count(*) FROM raffles WHERE status = 'completed' AND drawn_at >= ${dayStart}) AS winners`;
  return { players: Number(row!.players), pots: row!.pots, winners: Number(row!.winners) };
}

export async function leaderboard(since: Date, limit: number) {
  return db().$queryRaw<(Pick<User, "username" | "firstName" | "isDemo"> & { wins: bigint; winnings: bigint })[]>`
    SELECT u.username, u.first_name AS "firstName", u.is_demo AS "isDemo", count(*) AS wins, sum(r.prize)::bigint AS winnings
    FROM raffles r JOIN users u ON u.id = r.winner_id
    WHERE r.status = 'completed' AND r.drawn_at >= ${since}
    GROUP BY u.id, u.username, u.first_name, u.is_demo
    ORDER BY winnings DESC, wins DESC, u.username
    LIMIT ${limit}`;
}

/**
 * Drawn raffles of every kind, newest first (by draw time, then id: a batch of draws shares
 * one time), after the cursor `before` when given (the /fair list).
 */
export async function recentDraws(limit: number, before?: PageCursor) {
  return db().raffle.findMany({
    where: {
      status: "completed",
      drawnAt: { not: null },
      ...(before ? { OR: [{ drawnAt: { lt: before.at } }, { drawnAt: before.at, id: { lt: before.id } }] } : {}),
    },
    orderBy: [{ drawnAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true, kind: true, tier: true, entryPrice: true, ticketCount: true, finalPot: true, endsAt: true, drawnAt: true, closedAt: true },
  });
}

/** Raffles of the kind drawn since `since` (completed or cancelled), newest first, with the winner's name. */
export async function recentlyDrawn(kind: RaffleKind, since: Date) {
  return db().$queryRaw<
    (Pick<Raffle, "id" | "tier" | "entryPrice" | "playerCount" | "ticketCount" | "startsAt" | "endsAt" | "vipOnly" | "prize" | "winnerId" | "winningTicket"> &
      Pick<User, "username" | "firstName"> & {
        winnerIsDemo: boolean | null;
        finalPot: bigint;
        drawnAt: NonNullable<Raffle["drawnAt"]>;
        status: Exclude<Raffle["status"], "active">;
      })[]
  >`
    SELECT r.id::text AS id, r.tier, r.entry_price AS "entryPrice", coalesce(r.final_pot, 0) AS "finalPot",
           r.player_count AS "playerCount", r.ticket_count AS "ticketCount", r.starts_at AS "startsAt",
           r.ends_at AS "endsAt", r.drawn_at AS "drawnAt", r.status, r.vip_only AS "vipOnly", r.prize,
           r.winning_ticket AS "winningTicket", r.winner_id::text AS "winnerId", u.username, u.first_name AS "firstName",
           u.is_demo AS "winnerIsDemo"
    FROM raffles r LEFT JOIN users u ON u.id = r.winner_id
    WHERE r.drawn_at > ${since} AND r.kind = ${kind}::"RaffleKind" AND r.status IN ('completed', 'cancelled')
    ORDER BY r.drawn_at DESC LIMIT 100`;
}

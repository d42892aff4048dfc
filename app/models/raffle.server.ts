import type { RaffleKind } from "~/generated/prisma/client";
import { db } from "./db.server";
import type { Tx } from "./ledger.server";

/** Raffle rows as the rules need them. The seed is selected only where a draw needs it. */
export type LockedRaffle = {
  id: string;
  kind: RaffleKind;
  tier: string;
  entryPrice: bigint;
  startsAt: Date;
  endsAt: Date;
  status: "active" | "completed" | "cancelled";
  vipOnly: boolean;
  maxTicketsPerPlayer: number;
  ticketCount: number;
  playerCount: number;
  seed: string;
};

/**
 * Locks a raffle row for an entry or a draw. `skipLocked` returns nothing when another
 * transaction holds it (the scheduler moves on); otherwise this waits for the lock.
 */
export async function lockRaffle(tx: Tx, id: string, { skipLocked = false } = {}): Promise<LockedRaffle | undefined> {
  const rows = skipLocked
    ? await tx.$queryRaw<LockedRaffle[]>`
        SELECT id::text AS id, kind, tier, entry_price AS "entryPrice", starts_at AS "startsAt", ends_at AS "endsAt",
               status, vip_only AS "vipOnly", max_tickets_per_player AS "maxTicketsPerPlayer",
               ticket_count AS "ticketCount", player_count AS "playerCount", seed
        FROM raffles WHERE id = ${id}::uuid FOR UPDATE SKIP LOCKED`
    : await tx.$queryRaw<LockedRaffle[]>`
        SELECT id::text AS id, kind, tier, entry_price AS "entryPrice", starts_at AS "startsAt", ends_at AS "endsAt",
               status, vip_only AS "vipOnly", max_tickets_per_player AS "maxTicketsPerPlayer",
               ticket_count AS "ticketCount", player_count AS "playerCount", seed
        FROM raffles WHERE id = ${id}::uuid FOR UPDATE`;
  return rows[0];
}

/** Ids of active raffles whose end has passed, oldest first, skipping ones being drawn elsewhere. */
export async function claimDueRaffle(tx: Tx, now: Date): Promise<string | undefined> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM raffles
    WHERE status = 'active' AND ends_at <= ${now}
    ORDER BY ends_at LIMIT 1 FOR UPDATE SKIP LOCKED`;
  return rows[0]?.id;
}

export async function ticketsOf(tx: Tx, raffleId: string, userId: string): Promise<number> {
  return tx.entry.count({ where: { raffleId, userId } });
}

export async function addTickets(
  tx: Tx,
  raffle: Pick<LockedRaffle, "id" | "ticketCount">,
  userId: string,
  count: number,
  newPlayer: boolean,
): Promise<number[]> {
  const positions = Array.from({ length: count }, (_, i) => raffle.ticketCount + i);
  await tx.entry.createMany({ data: positions.map((position) => ({ raffleId: raffle.id, userId, position })) });
  await tx.raffle.update({
    where: { id: raffle.id },
    data: { ticketCount: { increment: count }, playerCount: { increment: newPlayer ? 1 : 0 } },
  });
  return positions;
}

/** Every ticket of a raffle in position order. */
export function listTickets(tx: Tx, raffleId: string) {
  return tx.entry.findMany({
    where: { raffleId },
    orderBy: { position: "asc" },
    select: { id: true, position: true, userId: true },
  });
}

/** The raffle's pot account id, or null for an unknown raffle (its id never changes, so no lock is needed). */
export function findPotAccountId(tx: Tx, raffleId: string) {
  return tx.ledgerAccount.findUnique({ where: { raffleId }, select: { id: true } });
}

export function potAccount(tx: Tx, raffleId: string) {
  return tx.ledgerAccount.findUniqueOrThrow({ where: { raffleId }, select: { id: true, balance: true } });
}

/** Scheduled raffles that started at or after `since` (what the scheduler has opened). */
export function listOpenSlots(since: Date) {
  return db().raffle.findMany({
    where: { scheduleId: { not: null }, startsAt: { gte: since } },
    select: { scheduleId: true, slot: true, startsAt: true },
  });
}

import { db, type Tx } from "../db.server";

/** A player's tickets (the entries table): which raffles they hold, and taking them back. */

/** Active raffles in which the player holds tickets. */
export function openEntriesOf(userId: string) {
  return db().entry.findMany({
    where: { userId, raffle: { status: "active" } },
    distinct: ["raffleId"],
    select: { raffleId: true },
  });
}

/** Tickets taken out of a raffle: how many, what they cost, and (when there were any) the raffle's game. */
export type RemovedTickets = { count: number; cash: bigint; bonus: bigint; kind?: string; tier?: string };

/**
 * Removes the player's tickets from a locked raffle and closes the gaps in the positions;
 * returns how many there were and what they cost in cash and in bonus coins.
 */
export async function removeTickets(tx: Tx, raffleId: string, userId: string): Promise<RemovedTickets> {
  const [removed] = await tx.$queryRaw<{ count: number; cash: bigint; bonus: bigint }[]>`
    WITH d AS (DELETE FROM entries WHERE raffle_id = ${raffleId}::uuid AND user_id = ${userId}::uuid RETURNING cash, bonus)
    SELECT count(*)::int AS count, coalesce(sum(cash), 0)::bigint AS cash, coalesce(sum(bonus), 0)::bigint AS bonus FROM d`;
  const { count } = removed!;
  if (count === 0) return removed!;
  // Every instance forgets the tickets it keeps of this player, at commit (ADR 103).
  await tx.$executeRaw`SELECT announce('read_model', 'tickets:' || ${userId})`;
  // Two steps, so that no intermediate position collides with another ticket's.
  await tx.$executeRaw`UPDATE entries SET position = position + 1000000000 WHERE raffle_id = ${raffleId}::uuid`;
  await tx.$executeRaw`
    UPDATE entries e SET position = r.rn - 1
    FROM (SELECT id, row_number() OVER (ORDER BY position) AS rn FROM entries WHERE raffle_id = ${raffleId}::uuid) r
    WHERE e.id = r.id`;
  const { kind, tier } = await tx.raffle.update({
    where: { id: raffleId },
    data: { ticketCount: { decrement: count }, playerCount: { decrement: 1 } },
    select: { kind: true, tier: true },
  });
  return { ...removed!, kind, tier };
}

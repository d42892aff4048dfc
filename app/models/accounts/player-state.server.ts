import { db } from "../db.server";

/** What a signed-in page shows of its player beyond the session. */
export type PlayerState = {
  cash: bigint;
  bonus: bigint;
  /** The player's last spin of the wheel, if any. */
  lastSpin: { spunAt: Date; reward: bigint } | null;
  /** The player's tickets in each active raffle (of either game) they are in. */
  tickets: Map<string, number>;
};

/**
 * The player's coins, last spin and tickets in the open raffles: the header's balance, the
 * wheel's countdown and the cards' "your tickets" in one round trip instead of three, for
 * every page (issue 36).
 */
export async function readPlayerState(userId: string): Promise<PlayerState> {
  const [row] = await db().$queryRaw<
    { cash: bigint | null; bonus: bigint | null; spunAt: Date | null; reward: bigint | null; raffleIds: string[] | null; tickets: number[] | null }[]
  >`
    WITH held AS (
      SELECT e.raffle_id, count(*)::int AS tickets
      FROM entries e JOIN raffles r ON r.id = e.raffle_id
      WHERE e.user_id = ${userId}::uuid AND r.status = 'active'
      GROUP BY e.raffle_id
    )
    SELECT (SELECT balance FROM ledger_accounts WHERE user_id = ${userId}::uuid AND kind = 'user') AS cash,
           (SELECT balance FROM ledger_accounts WHERE user_id = ${userId}::uuid AND kind = 'user_bonus') AS bonus,
           s.spun_at AS "spunAt", s.reward,
           (SELECT array_agg(raffle_id::text ORDER BY raffle_id) FROM held) AS "raffleIds",
           (SELECT array_agg(tickets ORDER BY raffle_id) FROM held) AS tickets
    FROM (SELECT) AS one
    LEFT JOIN LATERAL (SELECT spun_at, reward FROM daily_spins WHERE user_id = ${userId}::uuid ORDER BY spun_at DESC LIMIT 1) s ON true`;
  const ids = row!.raffleIds ?? [];
  const tickets = row!.tickets ?? [];
  return {
    cash: row!.cash ?? 0n,
    bonus: row!.bonus ?? 0n,
    lastSpin: row!.spunAt && row!.reward !== null ? { spunAt: row!.spunAt, reward: row!.reward } : null,
    tickets: new Map(ids.map((id, i) => [id, tickets[i]!])),
  };
}

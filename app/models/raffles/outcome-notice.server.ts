import type { OutcomeNotice, Raffle } from "~/generated/prisma/client";
import { db, type Tx } from "../db.server";

/**
 * Outcomes a player has not been told about yet (docs/decisions/028-telling-players-what-happened.md):
 * written by the draw in the transaction that pays, taken once by the player's next page.
 */
/** The outcome column is text; these two are the values the draw writes. */
export type OutcomeNoticeRow = Pick<OutcomeNotice, "userId" | "raffleId" | "amount" | "tickets"> & { outcome: "won" | "refunded" };

/** Records a draw batch's notices in one statement (a player's rows only reference it: no lock on their row is waited for). */
export async function insertOutcomeNotices(tx: Tx, rows: OutcomeNoticeRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO outcome_notices (user_id, raffle_id, outcome, amount, tickets)
    SELECT * FROM unnest(${rows.map((r) => r.userId)}::uuid[], ${rows.map((r) => r.raffleId)}::uuid[],
                         ${rows.map((r) => r.outcome)}::text[], ${rows.map((r) => r.amount)}::bigint[],
                         ${rows.map((r) => r.tickets)}::int[])
    ON CONFLICT (user_id, raffle_id) DO NOTHING`;
}

/** A drawn raffle's notice: its raffle's drawn_at is set by the draw that wrote it. */
export type TakenOutcome = Pick<OutcomeNoticeRow, "outcome" | "amount" | "tickets"> &
  Pick<Raffle, "tier" | "kind"> & { drawnAt: NonNullable<Raffle["drawnAt"]> };

/** Takes the player's notices, once: a page or tab that asks at the same time gets none of them. */
export function takeOutcomeNotices(userId: string): Promise<TakenOutcome[]> {
  return db().$queryRaw<TakenOutcome[]>`
    WITH taken AS (DELETE FROM outcome_notices WHERE user_id = ${userId}::uuid RETURNING raffle_id, outcome, amount, tickets)
    SELECT t.outcome, t.amount, t.tickets, r.tier, r.kind::text AS kind, r.drawn_at AS "drawnAt"
    FROM taken t JOIN raffles r ON r.id = t.raffle_id
    ORDER BY r.drawn_at, r.id`;
}

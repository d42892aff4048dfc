import { db } from "~/models/db.server";
import { ledgerInvariants } from "~/models/ledger.server";

/**
 * What must hold between any two steps, checked in SQL on the live database (the model
 * test after every command, the crash test after every restart). Each check returns the
 * rows that break it, so a failure names the raffle or account at fault.
 */
export const BALANCED = { total: 0n, mismatched: 0, negative: 0, unbalanced: 0 };

/** Sums to zero overall and per transaction, stored balances equal their postings, no floored account below zero. */
export { ledgerInvariants };

/**
 * Raffles agree with their tickets and their pot, and each was drawn at most once:
 * an active raffle's pot holds exactly its tickets' price and nothing of it was paid
 * out; a drawn raffle's pot is empty, with one prize transaction and one draw record if
 * completed, none and one cancel record if cancelled. Positions run 0..n-1.
 */
export async function raffleProblems(raffleIds?: string[]): Promise<string[]> {
  const rows = await db().$queryRaw<{ id: string; problem: string }[]>`
    WITH r AS (
      SELECT r.id, r.status::text AS status, r.entry_price, r.ticket_count, r.player_count,
             (SELECT balance FROM ledger_accounts a WHERE a.raffle_id = r.id) AS pot,
             (SELECT count(*) FROM entries e WHERE e.raffle_id = r.id) AS tickets,
             (SELECT count(DISTINCT e.user_id) FROM entries e WHERE e.raffle_id = r.id) AS players,
             (SELECT coalesce(max(e.position) + 1, 0) FROM entries e WHERE e.raffle_id = r.id) AS positions,
             (SELECT count(*) FROM ledger_transactions t WHERE t.raffle_id = r.id AND t.kind = 'prize') AS prizes,
             (SELECT count(*) FROM audit_events a WHERE a.target = 'raffle:' || r.id AND a.action = 'raffle.draw') AS draws,
             (SELECT count(*) FROM audit_events a WHERE a.target = 'raffle:' || r.id AND a.action = 'raffle.cancel') AS cancels
      FROM raffles r
      WHERE ${raffleIds ?? null}::uuid[] IS NULL OR r.id = ANY(${raffleIds ?? []}::uuid[])
    )
    SELECT id::text AS id, problem FROM (
      SELECT id, 'pot ' || coalesce(pot::text, 'missing') || ' <> ' || tickets || ' tickets x ' || entry_price AS problem
        FROM r WHERE status = 'active' AND pot IS DISTINCT FROM entry_price * tickets
      UNION ALL SELECT id, 'drawn with ' || pot || ' left in the pot' FROM r WHERE status <> 'active' AND pot <> 0
      UNION ALL SELECT id, 'ticket_count ' || ticket_count || ' <> ' || tickets || ' entries' FROM r WHERE ticket_count <> tickets
      UNION ALL SELECT id, 'player_count ' || player_count || ' <> ' || players || ' players' FROM r WHERE player_count <> players
      UNION ALL SELECT id, 'positions do not run 0..' || (tickets - 1) FROM r WHERE positions <> tickets
      UNION ALL SELECT id, status || ' with ' || prizes || ' prize transactions, ' || draws || ' draws, ' || cancels || ' cancels' FROM r
        WHERE (status = 'active' AND (prizes, draws, cancels) <> (0, 0, 0))
           OR (status = 'completed' AND (prizes, draws, cancels) <> (1, 1, 0))
           OR (status = 'cancelled' AND (prizes, draws, cancels) <> (0, 0, 1))
    ) problems ORDER BY id, problem`;
  return rows.map((row) => `raffle ${row.id}: ${row.problem}`);
}

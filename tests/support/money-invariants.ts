import { db } from "~/models/db.server";
import { ledgerInvariants } from "~/models/money/ledger.server";

/**
 * What must hold between any two steps, checked in SQL on the live database (the model
 * test after every command, the crash test after every restart). Each check returns the
 * rows that break it, so a failure names the raffle or account at fault.
 */
export const BALANCED = { total: 0n, bonusTotal: 0n, mismatched: 0, negative: 0, unbalanced: 0 };

/** Sums to zero overall, in bonus coins and per transaction, stored balances equal their postings, no floored account below zero. */
export { ledgerInvariants };

/**
 * Raffles agree with their tickets and their pots, and each was drawn at most once:
 * every ticket cost the entry price in cash and bonus together; an active raffle's cash
 * pot holds exactly its tickets' cash, its bonus pot their bonus, and nothing of it was
 * paid out; a drawn raffle's pot is empty, with one prize transaction and one draw record if
 * completed, none and one cancel record if cancelled. Positions run 0..n-1.
 */
export async function raffleProblems(raffleIds?: string[]): Promise<string[]> {
  const rows = await db().$queryRaw<{ id: string; problem: string }[]>`
    WITH r AS (
      SELECT r.id, r.status::text AS status, r.entry_price, r.ticket_count, r.player_count,
             (SELECT balance FROM ledger_accounts a WHERE a.raffle_id = r.id AND a.kind = 'raffle_pot') AS pot,
             (SELECT balance FROM ledger_accounts a WHERE a.raffle_id = r.id AND a.kind = 'raffle_pot_bonus') AS pot_bonus,
             (SELECT coalesce(sum(e.cash), 0) FROM entries e WHERE e.raffle_id = r.id) AS tickets_cash,
             (SELECT coalesce(sum(e.bonus), 0) FROM entries e WHERE e.raffle_id = r.id) AS tickets_bonus,
             (SELECT count(*) FROM entries e WHERE e.raffle_id = r.id AND e.cash + e.bonus <> r.entry_price) AS mispriced,
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
      SELECT id, 'cash pot ' || coalesce(pot::text, 'missing') || ' <> tickets'' cash ' || tickets_cash AS problem
        FROM r WHERE status = 'active' AND pot IS DISTINCT FROM tickets_cash
      UNION ALL SELECT id, 'bonus pot ' || coalesce(pot_bonus::text, 'missing') || ' <> tickets'' bonus ' || tickets_bonus
        FROM r WHERE status = 'active' AND pot_bonus IS DISTINCT FROM tickets_bonus
      UNION ALL SELECT id, mispriced || ' tickets whose cash and bonus do not add up to ' || entry_price FROM r WHERE mispriced > 0
      UNION ALL SELECT id, 'drawn with ' || (pot + pot_bonus) || ' left in the pots' FROM r WHERE status <> 'active' AND pot + pot_bonus <> 0
      UNION ALL SELECT id, 'ticket_count ' || ticket_count || ' <> ' || tickets || ' entries' FROM r WHERE ticket_count <> tickets
      UNION ALL SELECT id, 'player_count ' || player_count || ' <> ' || players || ' players' FROM r WHERE player_count <> players
      UNION ALL SELECT id, 'positions do not run 0..' || (tickets - 1) FROM r WHERE positions <> tickets
      UNION ALL SELECT id, status || ' with ' || prizes || ' prize transactions, ' || draws || ' draws, ' || cancels || ' cancels' FROM r
        WHERE (status = 'active' AND (prizes, draws, cancels) <> (0, 0, 0))
           OR (status = 'completed' AND (prizes, draws, cancels) <> (1, 1, 0))
           OR (status = 'cancelled' AND ((prizes, draws) <> (0, 0) OR cancels > 1 OR (tickets > 0 AND cancels <> 1)))
    ) problems ORDER BY id, problem`;
  return rows.map((row) => `raffle ${row.id}: ${row.problem}`);
}

/**
 * No player has taken out more cash than they paid in plus the cash part of their
 * prizes: what they withdrew (paid out, or held for a payout) is at most what card
 * deposits credited them (less reversals) and what prizes paid to their cash account.
 * Read from the ledger alone, so it holds whatever the code that moved the coins.
 */
export async function cashOutProblems(userIds: string[]): Promise<string[]> {
  const rows = await db().$queryRaw<{ id: string; paid: bigint; won: bigint; out: bigint }[]>`
    SELECT u.id::text AS id,
      (SELECT coalesce(-sum(p.amount), 0)::bigint FROM ledger_postings p
         JOIN ledger_transactions t ON t.id = p.transaction_id
         JOIN ledger_accounts a ON a.id = p.account_id AND a.kind = 'card_deposits'
         WHERE t.user_id = u.id) AS paid,
      (SELECT coalesce(sum(p.amount), 0)::bigint FROM ledger_postings p
         JOIN ledger_transactions t ON t.id = p.transaction_id AND t.kind = 'prize'
         JOIN ledger_accounts a ON a.id = p.account_id AND a.kind = 'user' AND a.user_id = u.id) AS won,
      (SELECT coalesce(sum(p.amount), 0)::bigint FROM ledger_postings p
         JOIN ledger_transactions t ON t.id = p.transaction_id
         JOIN ledger_accounts a ON a.id = p.account_id AND a.kind = 'payouts'
         WHERE t.user_id = u.id)
      + coalesce((SELECT balance FROM ledger_accounts a WHERE a.user_id = u.id AND a.kind = 'withdrawal_hold'), 0) AS out
    FROM users u WHERE u.id = ANY(${userIds}::uuid[])`;
  return rows.filter((r) => r.out > r.paid + r.won).map((r) => `player ${r.id}: ${r.out} out > ${r.paid} paid in + ${r.won} cash won`);
}

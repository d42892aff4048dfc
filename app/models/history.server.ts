import type { LedgerTransactionKind } from "~/generated/prisma/client";
import { db } from "./db.server";

/**
 * Every movement of the player's spendable coins, newest first: its signed amount, and
 * how much of it was cash and how much bonus.
 */
export async function playerMovements(
  userId: string,
  { kinds, from, to, limit }: { kinds?: LedgerTransactionKind[]; from: Date; to: Date; limit: number },
) {
  return db().$queryRaw<
    { id: string; kind: LedgerTransactionKind; amount: bigint; cash: bigint; bonus: bigint; raffleId: string | null; memo: string | null; createdAt: Date }[]
  >`
    SELECT t.id::text AS id, t.kind, sum(p.amount)::bigint AS amount,
           coalesce(sum(p.amount) FILTER (WHERE a.kind = 'user'), 0)::bigint AS cash,
           coalesce(sum(p.amount) FILTER (WHERE a.kind = 'user_bonus'), 0)::bigint AS bonus,
           t.raffle_id::text AS "raffleId", t.memo, t.created_at AS "createdAt"
    FROM ledger_postings p
    JOIN ledger_accounts a ON a.id = p.account_id AND a.user_id = ${userId}::uuid AND a.kind IN ('user', 'user_bonus')
    JOIN ledger_transactions t ON t.id = p.transaction_id
    WHERE t.created_at >= ${from} AND t.created_at < ${to}
      AND (${kinds ?? null}::"LedgerTransactionKind"[] IS NULL OR t.kind = ANY(${kinds ?? null}::"LedgerTransactionKind"[]))
    GROUP BY t.id
    ORDER BY t.created_at DESC, t.id DESC
    LIMIT ${limit}`;
}

/** The player's result from play since `since`: stakes, prizes, refunds and spins (not purchases, bonuses or withdrawals). */
export async function netPlaySince(userId: string, since: Date): Promise<bigint> {
  const [row] = await db().$queryRaw<{ net: bigint }[]>`
    SELECT coalesce(sum(p.amount), 0)::bigint AS net
    FROM ledger_postings p
    JOIN ledger_accounts a ON a.id = p.account_id AND a.user_id = ${userId}::uuid AND a.kind IN ('user', 'user_bonus')
    JOIN ledger_transactions t ON t.id = p.transaction_id
    WHERE t.created_at >= ${since} AND t.kind IN ('entry', 'prize', 'refund', 'spin_reward')`;
  return row!.net;
}

/** Coins bought by card, and coins paid out, over the player's whole history. */
export async function netDeposits(userId: string) {
  const [row] = await db().$queryRaw<{ deposited: bigint; paidOut: bigint }[]>`
    SELECT
      (SELECT coalesce(sum(-p.amount), 0)::bigint FROM ledger_postings p
         JOIN ledger_transactions t ON t.id = p.transaction_id
         JOIN ledger_accounts a ON a.id = p.account_id AND a.kind = 'card_deposits'
         WHERE t.user_id = ${userId}::uuid AND t.kind IN ('deposit', 'reversal')) AS deposited,
      (SELECT coalesce(sum(p.amount), 0)::bigint FROM ledger_postings p
         JOIN ledger_transactions t ON t.id = p.transaction_id
         JOIN ledger_accounts a ON a.id = p.account_id AND a.kind = 'payouts'
         WHERE t.user_id = ${userId}::uuid AND t.kind = 'payout') AS "paidOut"`;
  return row!;
}

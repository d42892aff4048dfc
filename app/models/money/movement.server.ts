import { Prisma, type LedgerTransaction, type LedgerTransactionKind, type Payment, type PayoutLeg, type Withdrawal } from "~/generated/prisma/client";
import { db } from "../db.server";
import { CHARGED_STATUSES } from "./payment.server";

/**
 * Every movement of the player's spendable coins, newest first: its signed amount, and
 * how much of it was cash and how much bonus. A purchase (`deposit`) and a refund or
 * dispute of one (`reversal`) come with their card payment: what it charged and what
 * refunds and disputes have taken back of it so far. The payment is found from the
 * transaction's reference, as `settlePayment` and `reversePayment` write it:
 * `deposit:<provider payment id>`, `reversal:<provider payment id>:<refund|dispute>:<cents>:<uuid>`.
 * A withdrawal's hold (`withdrawal-hold:<withdrawal id>`) comes with the withdrawal's state,
 * failure reason and legs (docs/decisions/021-payouts-that-move-money.md).
 * A player's movements are the transactions that name them (the ledger refuses a posting
 * to a player's account under any other), walked newest first by their (user_id,
 * created_at) index until a page is full: a page costs its rows, not the period's (ADR 092).
 */
export async function playerMovements(
  userId: string,
  { kinds, from, to, before, limit }: { kinds?: LedgerTransactionKind[]; from: Date; to: Date; before?: { at: Date; id: string }; limit: number },
) {
  // The payment and the withdrawal come as JSON objects: their int and text columns keep
  // their types, but a leg's bigint amount arrives as a JSON number.
  return db().$queryRaw<
    (Pick<LedgerTransaction, "id" | "kind" | "raffleId" | "memo" | "createdAt"> & {
      amount: bigint;
      receiptId: string | null;
      cash: bigint;
      bonus: bigint;
      payment: Pick<Payment, "amountCents" | "refundedCents" | "disputedCents"> | null;
      withdrawal:
        | (Pick<Withdrawal, "id" | "status" | "failureReason"> & {
            destination: Withdrawal["destinationMasked"];
            legs: (Pick<PayoutLeg, "kind" | "status"> & { amount: number })[];
          })
        | null;
    })[]
  >`
    WITH moves AS (
      SELECT t.id, t.kind, t.reference, t.raffle_id, t.memo, t.created_at, m.amount, m.cash, m.bonus
      FROM ledger_transactions t
      CROSS JOIN LATERAL (
        SELECT sum(p.amount)::bigint AS amount,
               coalesce(sum(p.amount) FILTER (WHERE a.kind = 'user'), 0)::bigint AS cash,
               coalesce(sum(p.amount) FILTER (WHERE a.kind = 'user_bonus'), 0)::bigint AS bonus
        FROM ledger_postings p
        JOIN ledger_accounts a ON a.id = p.account_id AND a.user_id = ${userId}::uuid AND a.kind IN ('user', 'user_bonus')
        WHERE p.transaction_id = t.id
      ) m
      WHERE t.user_id = ${userId}::uuid AND t.created_at >= ${from} AND t.created_at < ${to}
        ${kinds ? Prisma.sql`AND t.kind = ANY(${kinds}::"LedgerTransactionKind"[])` : Prisma.empty}
        ${before ? Prisma.sql`AND t.created_at <= ${before.at} AND (t.created_at, t.id) < (${before.at}, ${before.id}::uuid)` : Prisma.empty}
        -- Only what moved the player's spendable coins: a payout moves held coins alone.
        AND m.amount IS NOT NULL
      ORDER BY t.created_at DESC, t.id DESC
      LIMIT ${limit}
    )
    SELECT m.id::text AS id, m.kind, m.amount, m.cash, m.bonus, m.raffle_id::text AS "raffleId", m.memo, m.created_at AS "createdAt",
           CASE WHEN pay.id IS NULL THEN NULL ELSE json_build_object(
             'amountCents', pay.amount_cents, 'refundedCents', pay.refunded_cents, 'disputedCents', pay.disputed_cents)
           END AS payment,
           CASE WHEN w.id IS NULL THEN NULL ELSE json_build_object(
             'id', w.id, 'status', w.status, 'destination', w.destination_masked, 'failureReason', w.failure_reason,
             'legs', (SELECT json_agg(json_build_object('kind', l.kind, 'amount', l.amount, 'status', l.status) ORDER BY l.position)
                      FROM payout_legs l WHERE l.withdrawal_id = w.id))
           END AS withdrawal,
           -- An entry's receipt is its first ticket's (the reference names it), while the ticket is held.
           -- Compared as a uuid, so the primary key finds it; only a well-formed id is cast. The
           -- owner is checked on the row found, not in the condition: with it there, a player newer
           -- than the table's statistics got a scan of all their tickets per row (issue 36).
           (SELECT CASE WHEN e.user_id = ${userId}::uuid THEN e.id::text END FROM entries e WHERE m.kind = 'entry'
              AND e.id = substring(m.reference FROM ':([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$')::uuid) AS "receiptId"
    FROM moves m
    LEFT JOIN withdrawals w ON m.kind = 'withdrawal_hold' AND w.user_id = ${userId}::uuid
      AND w.id::text = substring(m.reference FROM '^withdrawal-hold:(.+)$')
    LEFT JOIN payments pay ON pay.user_id = ${userId}::uuid AND pay.provider_payment_id = CASE m.kind
      WHEN 'deposit' THEN substring(m.reference FROM '^deposit:(.+)$')
      WHEN 'reversal' THEN substring(m.reference FROM '^reversal:(.+):(?:(?:refund|dispute):[0-9]+:[0-9a-f-]+|dispute-won:[^:]+)$')
    END
    ORDER BY m.created_at DESC, m.id DESC`;
}

/** The player's VIP purchases charged between `from` and `to` (they move no coins, so the ledger has no row of them), newest first. */
export function vipCharges(userId: string, { from, to, before, limit }: { from: Date; to: Date; before?: { at: Date; id: string }; limit: number }) {
  return db().payment.findMany({
    where: {
      userId,
      purpose: "vip",
      status: { in: CHARGED_STATUSES },
      settledAt: { gte: from, lt: to },
      ...(before ? { OR: [{ settledAt: { lt: before.at } }, { settledAt: before.at, id: { lt: before.id } }] } : {}),
    },
    orderBy: [{ settledAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true, product: true, amountCents: true, refundedCents: true, disputedCents: true, settledAt: true },
  });
}

/** The player's result from play since `since`: stakes, prizes, refunds and spins (not purchases, bonuses or withdrawals). */
export async function netPlaySince(userId: string, since: Date): Promise<bigint> {
  const [row] = await db().$queryRaw<{ net: bigint }[]>`
    SELECT coalesce(sum(p.amount), 0)::bigint AS net
    FROM ledger_postings p
    JOIN ledger_accounts a ON a.id = p.account_id AND a.user_id = ${userId}::uuid AND a.kind IN ('user', 'user_bonus')
    JOIN ledger_transactions t ON t.id = p.transaction_id
    WHERE t.user_id = ${userId}::uuid AND t.created_at >= ${since} AND t.kind IN ('entry', 'prize', 'refund', 'spin_reward')`;
  return row!.net;
}

/**
 * The player's money, over their whole history, in cents: what their card payments (coins
 * and VIP) charged, what refunds and disputes took back of them, and what their withdrawals
 * paid out: refunds to their cards and transfers (`transferred`, the ledger's payouts account).
 */
export async function moneyInAndOut(userId: string) {
  const [row] = await db().$queryRaw<{ charged: bigint; refunded: bigint; disputed: bigint; paidOut: bigint; transferred: bigint }[]>`
    SELECT coalesce(sum(amount_cents), 0)::bigint AS charged,
           coalesce(sum(refunded_cents), 0)::bigint AS refunded,
           coalesce(sum(disputed_cents), 0)::bigint AS disputed,
           (SELECT coalesce(sum(p.amount), 0)::bigint FROM ledger_postings p
              JOIN ledger_transactions t ON t.id = p.transaction_id
              JOIN ledger_accounts a ON a.id = p.account_id AND a.kind IN ('payouts', 'card_deposits')
              WHERE t.user_id = ${userId}::uuid AND t.kind = 'payout') AS "paidOut",
           (SELECT coalesce(sum(p.amount), 0)::bigint FROM ledger_postings p
              JOIN ledger_transactions t ON t.id = p.transaction_id
              JOIN ledger_accounts a ON a.id = p.account_id AND a.kind = 'payouts'
              WHERE t.user_id = ${userId}::uuid AND t.kind = 'payout') AS transferred
    FROM payments
    WHERE user_id = ${userId}::uuid AND status = ANY(${CHARGED_STATUSES}::"PaymentStatus"[])`;
  return row!;
}

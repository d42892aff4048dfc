import type { Withdrawal, WithdrawalMethod, WithdrawalStatus } from "~/generated/prisma/client";
import { db, type Tx } from "../db.server";

export async function withdrawalStatus(id: string): Promise<WithdrawalStatus> {
  return (await db().withdrawal.findUniqueOrThrow({ where: { id }, select: { status: true } })).status;
}

export function insertWithdrawal(
  tx: Tx,
  data: {
    id: string;
    userId: string;
    amount: bigint;
    method: WithdrawalMethod | null;
    destinationMasked: string;
    destinationEncrypted?: string;
    cardToken?: string;
    cardLast4?: string;
    cardExpiry?: string;
    requiresVerification: boolean;
    createdAt: Date;
  },
) {
  return tx.withdrawal.create({ data, select: { id: true } });
}

/** A player's withdrawals, newest first: only what may be shown (masked). */
export function listUserWithdrawals(userId: string) {
  return db().withdrawal.findMany({
    where: { userId },
    orderBy: { createdAt: "desc" },
    take: 50,
    select: {
      id: true,
      amount: true,
      method: true,
      status: true,
      destinationMasked: true,
      failureReason: true,
      createdAt: true,
      legs: {
        orderBy: { position: "asc" },
        select: { kind: true, amount: true, status: true, failureReason: true, payment: { select: { createdAt: true, amountCents: true } } },
      },
    },
  });
}

export type LockedWithdrawal = Pick<Withdrawal, "id" | "userId" | "amount" | "status" | "requiresVerification" | "firstApproverId">;

export async function lockWithdrawal(tx: Tx, id: string): Promise<LockedWithdrawal | undefined> {
  const rows = await tx.$queryRaw<LockedWithdrawal[]>`
    SELECT id::text AS id, user_id::text AS "userId", amount, status, requires_verification AS "requiresVerification",
           first_approver_id::text AS "firstApproverId"
    FROM withdrawals WHERE id = ${id}::uuid FOR UPDATE`;
  return rows[0];
}

export function updateWithdrawal(
  tx: Tx,
  id: string,
  data: {
    status?: WithdrawalStatus;
    firstApproverId?: string;
    decidedById?: string;
    rejectReason?: string;
    failureReason?: string;
    decidedAt?: Date;
    requiresVerification?: boolean;
  },
) {
  return tx.withdrawal.update({ where: { id }, data });
}

/** Where a withdrawal goes, masked (for the messages that tell the player about it). */
export async function maskedDestinationOf(tx: Tx, id: string): Promise<string> {
  const row = await tx.withdrawal.findUniqueOrThrow({ where: { id }, select: { destinationMasked: true } });
  return row.destinationMasked;
}

/** What the player asked to withdraw since `since`, whatever became of it (the identity rule's 30 days). */
export async function requestedSince(tx: Tx, userId: string, since: Date): Promise<bigint> {
  const rows = await tx.$queryRaw<{ total: bigint }[]>`
    SELECT coalesce(sum(amount), 0)::bigint AS total FROM withdrawals WHERE user_id = ${userId}::uuid AND created_at >= ${since}`;
  return rows[0]?.total ?? 0n;
}

/**
 * The player's payouts waiting for a decision, and those approved since `since` (the
 * second-approver rule's 24 hours): rejected ones and ones that failed paid nothing.
 */
export async function payingSince(tx: Tx, userId: string, since: Date): Promise<bigint> {
  const rows = await tx.$queryRaw<{ total: bigint }[]>`
    SELECT coalesce(sum(amount), 0)::bigint AS total FROM withdrawals
    WHERE user_id = ${userId}::uuid
      AND (status = 'pending' OR (status IN ('approved', 'processing', 'completed') AND decided_at >= ${since}))`;
  return rows[0]?.total ?? 0n;
}

/** The same totals for many players at once (the back office's queue). */
export async function payingSinceByUser(userIds: string[], since: Date): Promise<Map<string, bigint>> {
  if (userIds.length === 0) return new Map();
  const rows = await db().$queryRaw<{ userId: string; total: bigint }[]>`
    SELECT user_id::text AS "userId", coalesce(sum(amount), 0)::bigint AS total FROM withdrawals
    WHERE user_id = ANY(${userIds}::uuid[])
      AND (status = 'pending' OR (status IN ('approved', 'processing', 'completed') AND decided_at >= ${since}))
    GROUP BY user_id`;
  return new Map(rows.map((r) => [r.userId, r.total]));
}

/** A withdrawal's transfer leg waiting for its reference, with the sealed destination (for the transfer step only). */
export function transferToSend(tx: Tx, id: string) {
  return tx.withdrawal.findUnique({
    where: { id },
    select: {
      id: true,
      userId: true,
      method: true,
      destinationMasked: true,
      destinationEncrypted: true,
      cardToken: true,
      user: { select: { username: true, email: true } },
      legs: { where: { kind: "transfer", status: "processing" }, select: { id: true, amount: true } },
    },
  });
}

import type { Payment, PayoutLeg, PayoutLegKind, PayoutLegStatus } from "~/generated/prisma/client";
import { db, type Tx } from "../db.server";

/** Payout legs: the parts of a withdrawal (docs/decisions/018-payouts-that-move-money.md). */

export type RefundablePayment = Pick<Payment, "id" | "providerPaymentId" | "provider" | "createdAt" | "amountCents" | "coinsCredited"> & {
  refundableCents: number;
};

/**
 * The player's card payments for coins since `since` that can still be refunded, newest
 * first: their price less what was refunded or disputed and what legs of withdrawals not
 * yet sent have claimed. Read under the player's row lock when legs are planned, so that
 * two requests never claim the same cents.
 */
export function refundablePayments(client: Tx, userId: string, since: Date): Promise<RefundablePayment[]> {
  return client.$queryRaw<RefundablePayment[]>`
    SELECT p.id::text AS id, p.provider_payment_id AS "providerPaymentId", p.provider, p.created_at AS "createdAt",
           p.amount_cents AS "amountCents", p.coins_credited AS "coinsCredited", r.refundable::int AS "refundableCents"
    FROM payments p
    CROSS JOIN LATERAL (
      SELECT p.amount_cents - p.refunded_cents - p.disputed_cents
             - coalesce((SELECT sum(l.amount) FROM payout_legs l WHERE l.payment_id = p.id AND l.status = 'pending'), 0) AS refundable
    ) r
    WHERE p.user_id = ${userId}::uuid AND p.purpose = 'coins' AND p.status = 'succeeded' AND p.created_at >= ${since}
      AND r.refundable > 0
    ORDER BY p.created_at DESC, p.id DESC`;
}

export type NewLeg = { kind: PayoutLegKind; paymentId: string | null; amount: bigint };

export async function insertLegs(tx: Tx, withdrawalId: string, legs: NewLeg[]): Promise<void> {
  await tx.payoutLeg.createMany({
    data: legs.map((leg, position) => ({ withdrawalId, position, kind: leg.kind, paymentId: leg.paymentId, amount: leg.amount })),
  });
}

export type Leg = Pick<PayoutLeg, "id" | "withdrawalId" | "kind" | "amount" | "status" | "providerReference" | "failureReason" | "paymentId" | "bonusTaken"> & {
  /** The refunded payment's provider id (card_refund legs; null for the transfer). */
  providerPaymentId: Payment["providerPaymentId"] | null;
};

/** The withdrawal's legs in order, locked (the caller holds the withdrawal's lock). */
export function lockLegs(tx: Tx, withdrawalId: string): Promise<Leg[]> {
  return tx.$queryRaw<Leg[]>`
    SELECT l.id::text AS id, l.withdrawal_id::text AS "withdrawalId", l.kind, l.amount, l.status,
           l.provider_reference AS "providerReference", l.failure_reason AS "failureReason",
           l.payment_id::text AS "paymentId", p.provider_payment_id AS "providerPaymentId", l.bonus_taken AS "bonusTaken"
    FROM payout_legs l LEFT JOIN payments p ON p.id = l.payment_id
    WHERE l.withdrawal_id = ${withdrawalId}::uuid ORDER BY l.position FOR UPDATE OF l`;
}

export function updateLeg(
  tx: Tx,
  id: string,
  data: { status?: PayoutLegStatus; providerReference?: string; failureReason?: string; completedById?: string; settledAt?: Date; bonusTaken?: bigint },
) {
  return tx.payoutLeg.update({ where: { id }, data, select: { id: true } });
}

/** Moves a payment's refunded total by `cents` (a refund leg starting, or failing). */
export function addRefundedCents(tx: Tx, paymentId: string, cents: number) {
  return tx.$executeRaw`UPDATE payments SET refunded_cents = refunded_cents + ${cents} WHERE id = ${paymentId}::uuid`;
}

/** Locks a payment row by our id: its price, what it credited, and what was refunded or disputed of it so far. */
export async function lockPaymentById(
  tx: Tx,
  paymentId: string,
): Promise<(Pick<Payment, "amountCents" | "coinsCredited"> & { takenBackCents: number }) | undefined> {
  const rows = await tx.$queryRaw<(Pick<Payment, "amountCents" | "coinsCredited"> & { takenBackCents: number })[]>`
    SELECT amount_cents AS "amountCents", coins_credited AS "coinsCredited", refunded_cents + disputed_cents AS "takenBackCents"
    FROM payments WHERE id = ${paymentId}::uuid FOR UPDATE`;
  return rows[0];
}

/** Marks the withdrawal as the one whose news the player gets on their next page. */
export function notePayoutNews(tx: Tx, userId: string, withdrawalId: string) {
  return tx.user.update({ where: { id: userId }, data: { payoutNoticeId: withdrawalId }, select: { id: true } });
}

/** Takes the news once (another page or tab may take it first): the withdrawal, or undefined. */
export async function takePayoutNews(userId: string, withdrawalId: string) {
  const taken = await db().user.updateMany({ where: { id: userId, payoutNoticeId: withdrawalId }, data: { payoutNoticeId: null } });
  if (taken.count === 0) return undefined;
  return db().withdrawal.findUnique({
    where: { id: withdrawalId },
    select: { status: true, amount: true, failureReason: true, legs: { select: { status: true, amount: true } } },
  });
}

export function findLegByReference(providerReference: string) {
  return db().payoutLeg.findUnique({ where: { providerReference }, select: { id: true, withdrawalId: true } });
}

/** Refund legs sent (or being sent) whose outcome is not known yet: the sweep asks the provider again. */
export function openRefundLegs(take: number) {
  return db().payoutLeg.findMany({
    where: { kind: "card_refund", status: "processing" },
    orderBy: { createdAt: "asc" },
    take,
    select: { id: true, withdrawalId: true, providerReference: true },
  });
}

/** Withdrawals approved but not yet sent (a crash between the decision and the sending). */
export function approvedWithdrawals(take: number) {
  return db().withdrawal.findMany({ where: { status: "approved" }, orderBy: { decidedAt: "asc" }, take, select: { id: true } });
}

/** Transfers waiting for an admin to record their reference, oldest first. */
export function transfersAwaitingReference() {
  return db().payoutLeg.findMany({
    where: { kind: "transfer", status: "processing" },
    orderBy: { createdAt: "asc" },
    take: 200,
    select: {
      id: true,
      amount: true,
      createdAt: true,
      withdrawal: {
        select: {
          id: true,
          method: true,
          destinationMasked: true,
          user: { select: { id: true, username: true, email: true, suspendedAt: true, flaggedAt: true, flagReason: true } },
        },
      },
    },
  });
}

/** A leg by its id, with its withdrawal's (an admin names a leg held for review by its id). */
export function findLeg(id: string) {
  return db().payoutLeg.findUnique({ where: { id }, select: { id: true, withdrawalId: true, kind: true, status: true } });
}

/** Refunds the provider refused, held for an admin to reconcile with it, oldest first. */
export function refundsInReview() {
  return db().payoutLeg.findMany({
    where: { kind: "card_refund", status: "review" },
    orderBy: { createdAt: "asc" },
    take: 200,
    select: {
      id: true,
      amount: true,
      failureReason: true,
      createdAt: true,
      payment: { select: { providerPaymentId: true, amountCents: true, createdAt: true } },
      withdrawal: { select: { id: true, user: { select: { id: true, username: true, email: true } } } },
    },
  });
}

/** How many of the player's refunds are held for review. */
export function countRefundsInReview(tx: Tx, userId: string) {
  return tx.payoutLeg.count({ where: { status: "review", withdrawal: { userId } } });
}

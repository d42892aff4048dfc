import { randomUUID } from "node:crypto";
import type { Payment, PaymentPurpose, PaymentStatus, VipTier } from "~/generated/prisma/client";
import { db, type Tx } from "../db.server";

export function createPaymentRow(
  tx: Tx,
  data: {
    userId: string;
    provider: string;
    providerPaymentId: string;
    purpose: PaymentPurpose;
    product: string;
    amountCents: number;
    createdAt: Date;
  },
) {
  return tx.payment.create({ data, select: { id: true } });
}

/** A payment reserved before the provider is called holds this id until the provider names it. */
const RESERVED = "reserved:";
const reserved = { providerPaymentId: { startsWith: RESERVED } };
export const newReservedPaymentId = () => `${RESERVED}${randomUUID()}`;

/** Serializes the player's payment starts: their deposit-limit check and reservation. */
export async function lockPlayerForPayment(tx: Tx, userId: string): Promise<void> {
  await tx.$executeRaw`SELECT id FROM users WHERE id = ${userId}::uuid FOR NO KEY UPDATE`;
}

/**
 * Gives a reserved payment the provider's ids, once the provider has it. Throws when the
 * reservation is no longer pending (the sweep gave it up): the provider's payment must
 * not reach the player then.
 */
export async function attachProviderPayment(id: string, data: { providerPaymentId: string; checkoutSessionId?: string }): Promise<void> {
  const { count } = await db().payment.updateMany({ where: { id, status: "pending", ...reserved }, data });
  if (count !== 1) throw new Error(`payment ${id} is no longer reserved`);
}

/**
 * Reservations whose payment never reached the provider (this one, or every one started
 * before a time: left by a process that died meanwhile): they fail and hold nothing.
 */
export function abandonReservations(which: { id: string } | { startedBefore: Date }, message: string, at: Date) {
  return db().payment.updateMany({
    where: { status: "pending", ...reserved, ...("id" in which ? { id: which.id } : { createdAt: { lt: which.startedBefore } }) },
    data: { status: "failed", failureMessage: message, settledAt: at },
  });
}

/** A payment of this player (another player's payment id finds nothing). */
export function findPaymentOfUser(providerPaymentId: string, userId: string) {
  return db().payment.findFirst({ where: { providerPaymentId, userId }, select: { providerPaymentId: true, status: true } });
}

/**
 * A payment still pending this long after it started is left to support: the sweep no
 * longer asks the provider about it, and it no longer holds the player's deposit limits.
 */
export const PENDING_PAYMENT_HORIZON_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * A payment in one of these states was charged: the money came in, whatever a refund or
 * dispute took back of it later (`refunded_cents`, `disputed_cents`).
 */
export const CHARGED_STATUSES: PaymentStatus[] = ["succeeded", "refunded", "disputed"];

export type UnfinishedPayment = { id: string; providerPaymentId: string; checkoutSessionId: string | null; createdAt: Date };
const unfinishedSelect = { id: true, providerPaymentId: true, checkoutSessionId: true, createdAt: true } as const;
/** Named by the provider (not a reservation), not yet succeeded or failed, started within the horizon. */
const unfinished = (now: Date) => ({
  status: "pending" as const,
  createdAt: { gte: new Date(now.getTime() - PENDING_PAYMENT_HORIZON_MS) },
  NOT: reserved,
});

/** Unfinished payments started up to `startedBy`, oldest first; the page after `after`. */
export function stalePendingPayments(now: Date, startedBy: Date, take: number, after?: UnfinishedPayment): Promise<UnfinishedPayment[]> {
  const where = unfinished(now);
  return db().payment.findMany({
    where: {
      ...where,
      createdAt: { ...where.createdAt, lte: startedBy },
      ...(after ? { OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, id: { gt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take,
    select: unfinishedSelect,
  });
}

/** The player's unfinished payments, oldest first. */
export function unfinishedPaymentsOf(userId: string, now: Date): Promise<UnfinishedPayment[]> {
  return db().payment.findMany({ where: { userId, ...unfinished(now) }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: unfinishedSelect });
}

/** A hosted checkout that expired unpaid: its payment failed (unless settled meanwhile). */
export function failUnpaidCheckout(checkoutSessionId: string, message: string, at: Date) {
  return db().payment.updateMany({ where: { checkoutSessionId, status: "pending" }, data: { status: "failed", failureMessage: message, settledAt: at } });
}

export function findPaymentBySession(checkoutSessionId: string) {
  return db().payment.findUnique({ where: { checkoutSessionId }, select: { providerPaymentId: true, userId: true } });
}

export type LockedPayment = Pick<
  Payment,
  "id" | "userId" | "providerPaymentId" | "purpose" | "product" | "amountCents" | "currency" | "status" | "coinsCredited" | "refundedCents" | "disputedCents"
>;

export async function lockPayment(tx: Tx, providerPaymentId: string): Promise<LockedPayment | undefined> {
  const rows = await tx.$queryRaw<LockedPayment[]>`
    SELECT id::text AS id, user_id::text AS "userId", provider_payment_id AS "providerPaymentId", purpose, product,
           amount_cents AS "amountCents", currency, status, coins_credited AS "coinsCredited",
           refunded_cents AS "refundedCents", disputed_cents AS "disputedCents"
    FROM payments WHERE provider_payment_id = ${providerPaymentId} FOR UPDATE`;
  return rows[0];
}

export function updatePayment(
  tx: Tx,
  id: string,
  data: {
    status?: PaymentStatus;
    coinsCredited?: bigint;
    failureMessage?: string;
    settledAt?: Date;
    providerPaymentId?: string;
    refundedCents?: number;
    disputedCents?: number;
  },
) {
  return tx.payment.update({ where: { id }, data });
}

/** Hosted checkout: the payment id becomes known only when the session completes. */
export function setProviderPaymentId(tx: Tx, checkoutSessionId: string, providerPaymentId: string) {
  return tx.payment.updateMany({ where: { checkoutSessionId, providerPaymentId: { startsWith: "cs_pending:" } }, data: { providerPaymentId } });
}

/** The player's membership as stored (the tier counts only while vipExpiry is in the future). */
export function vipOf(tx: Tx, userId: string) {
  return tx.user.findUniqueOrThrow({ where: { id: userId }, select: { vipTier: true, vipExpiry: true } });
}

/**
 * Adds `days` to the membership `current` (read under the payment's lock) from its end, or
 * from now, at `tier`: the tier the player holds from now on (the service never lowers an
 * active one).
 */
export async function extendVip(tx: Tx, userId: string, current: { vipExpiry: Date | null }, tier: VipTier, paymentReference: string, now: Date, days: number) {
  const from = current.vipExpiry && current.vipExpiry > now ? current.vipExpiry : now;
  const endsAt = new Date(from.getTime() + days * 86_400_000);
  await tx.vipSubscription.create({ data: { userId, tier, startsAt: from, endsAt, paymentReference } });
  await tx.user.update({ where: { id: userId }, data: { vipTier: tier, vipExpiry: endsAt } });
  return endsAt;
}

export async function shortenVip(tx: Tx, userId: string, now: Date, days: number) {
  const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { vipExpiry: true } });
  if (!user.vipExpiry) return;
  const cut = new Date(Math.max(now.getTime(), user.vipExpiry.getTime() - days * 86_400_000));
  await tx.user.update({ where: { id: userId }, data: { vipExpiry: cut } });
}

/** Gives back `days` a refund or dispute took (shortenVip), from now if the membership ended meanwhile. */
export async function lengthenVip(tx: Tx, userId: string, now: Date, days: number) {
  const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { vipExpiry: true } });
  const from = user.vipExpiry && user.vipExpiry > now ? user.vipExpiry : now;
  await tx.user.update({ where: { id: userId }, data: { vipExpiry: new Date(from.getTime() + days * 86_400_000) } });
}

/** Whether the provider's payment is one of ours (webhooks for others are acknowledged and ignored). */
export async function paymentExists(providerPaymentId: string): Promise<boolean> {
  return (await db().payment.count({ where: { providerPaymentId } })) > 0;
}

/**
 * Records a provider event as handled; false when it was already (a repeat). In the
 * transaction that acts on it, so that a parallel repeat waits on the key and then sees it.
 */
export async function claimProviderEvent(tx: Tx, eventId: string, type: string): Promise<boolean> {
  const claimed = await tx.providerEvent.createMany({ data: [{ eventId, type }], skipDuplicates: true });
  return claimed.count === 1;
}

/** Records an event whose handling is idempotent by itself (a settlement, a refund's state). */
export async function recordProviderEvent(eventId: string, type: string): Promise<void> {
  await db().providerEvent.createMany({ data: [{ eventId, type }], skipDuplicates: true });
}

export function providerEventSeen(eventId: string) {
  return db().providerEvent.findUnique({ where: { eventId }, select: { eventId: true } });
}

/** The payment's state and where its payer lives: what decides whether an authorised card may be charged (ADR 080). */
export async function paymentOwnerOf(providerPaymentId: string): Promise<{ status: string; country: string | null } | undefined> {
  const [row] = await db().$queryRaw<{ status: string; country: string | null }[]>`
    SELECT p.status::text AS status, u.country FROM payments p JOIN users u ON u.id = p.user_id
    WHERE p.provider_payment_id = ${providerPaymentId}`;
  return row;
}

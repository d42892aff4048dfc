import { db, type Tx } from "../db.server";

/**
 * Identity checks (`identity_checks`, ADR 080) and the demo identity provider's own sessions
 * (`demo_identity_sessions`, kept as Stripe keeps its VerificationSessions).
 */
export type CheckStatus = "pending" | "verified" | "failed" | "under_age";

export function createCheck(data: { userId: string; provider: string; providerSessionId: string }) {
  return db().identityCheck.create({ data, select: { id: true } });
}

/** The player's check still waiting for the provider, newest first. */
export function pendingCheckOf(userId: string) {
  return db().identityCheck.findFirst({ where: { userId, status: "pending", providerSessionId: { not: null } }, orderBy: { createdAt: "desc" } });
}

export function latestCheckOf(userId: string) {
  return db().identityCheck.findFirst({
    where: { userId },
    orderBy: { createdAt: "desc" },
    select: { status: true, failureReason: true, provider: true, decidedAt: true },
  });
}

export function findCheckBySession(providerSessionId: string) {
  return db().identityCheck.findUnique({ where: { providerSessionId } });
}

/** The check under its row lock: whoever decides it first (webhook, return, demo page) decides it once. */
export async function lockCheck(tx: Tx, providerSessionId: string) {
  const [row] = await tx.$queryRaw<{ id: string; userId: string; status: CheckStatus }[]>`
    SELECT id::text AS id, user_id::text AS "userId", status FROM identity_checks
    WHERE provider_session_id = ${providerSessionId} FOR UPDATE`;
  return row;
}

export function decideCheck(
  tx: Tx,
  id: string,
  data: {
    status: CheckStatus;
    failureReason?: string | null;
    verifiedFirstName?: string;
    verifiedLastName?: string;
    verifiedDateOfBirth?: Date;
    decidedAt: Date;
  },
) {
  return tx.identityCheck.update({ where: { id }, data, select: { id: true } });
}

/** A check an admin records as done outside the site, with the reason (ADR 080). */
export function recordOutsideCheck(tx: Tx, data: { userId: string; recordedById: string; reason: string; decidedAt: Date }) {
  return tx.identityCheck.create({ data: { ...data, provider: "outside", status: "verified" }, select: { id: true } });
}

/** Marks the player verified (once: the first time stays) and keeps the person key of the verified fields. */
export function markVerified(tx: Tx, userId: string, at: Date, identityKey: string | null) {
  return tx.user.updateMany({
    where: { id: userId },
    data: { identityKey: identityKey ?? undefined, identityVerifiedAt: at },
  });
}

/** An account found under 18: no play, no payment, until closure (or support) ends it. */
export function suspendForAge(tx: Tx, userId: string, at: Date) {
  return tx.user.update({ where: { id: userId }, data: { suspendedAt: at }, select: { id: true } });
}

/** The person key of a player's verified identity (null until a provider verified it). */
export async function identityKeyOf(tx: Tx, userId: string): Promise<string | null> {
  const row = await tx.user.findUnique({ where: { id: userId }, select: { identityKey: true } });
  return row?.identityKey ?? null;
}

/** Card payments of the player with cents neither refunded nor disputed yet. */
export async function openCardPaymentsOf(userId: string) {
  const rows = await db().payment.findMany({
    where: { userId, status: "succeeded" },
    select: { id: true, provider: true, providerPaymentId: true, amountCents: true, refundedCents: true, disputedCents: true },
  });
  return rows.map((p) => ({ ...p, openCents: p.amountCents - p.refundedCents - p.disputedCents })).filter((p) => p.openCents > 0);
}

/**
 * Accounts found under 18 and not closed yet (their closure waited), the oldest first; not
 * one that support has since verified or lifted the suspension of.
 */
export function underAgeAccountsOpen(take: number) {
  return db().user.findMany({
    where: { closedAt: null, suspendedAt: { not: null }, identityVerifiedAt: null, identityChecks: { some: { status: "under_age" } } },
    select: { id: true },
    orderBy: { suspendedAt: "asc" },
    take,
  });
}

/** What the rules of play read: where the player lives and whether they are verified. */
export async function identityGateOf(userId: string, client: Tx = db()) {
  const [row] = await client.$queryRaw<{ country: string | null; verified: boolean }[]>`
    SELECT country, identity_verified_at IS NOT NULL AS verified FROM users WHERE id = ${userId}::uuid`;
  return row;
}

// The demo provider's sessions.

export type DemoOutcome = {
  status: "verified" | "requires_input";
  verified?: { firstName: string; lastName: string; dateOfBirth: string };
  error?: { code: string; reason: string };
};

export function createDemoIdentitySession(id: string, userId: string) {
  return db().demoIdentitySession.create({ data: { id, status: "requires_input", metadata: { userId } }, select: { id: true } });
}

export function findDemoIdentitySession(id: string) {
  return db().demoIdentitySession.findUnique({ where: { id } });
}

/** Records what the player chose on the demo page; a session already verified stays so. */
export function decideDemoIdentitySession(id: string, outcome: DemoOutcome) {
  return db().demoIdentitySession.updateMany({ where: { id, status: { not: "verified" } }, data: { status: outcome.status, outcome } });
}

/** Demo mode: the demo accounts and the simulated crowd count as checked by the demo provider (they have no documents). */
export function markDemoPlayerVerified(email: string, at = new Date()) {
  return db().user.updateMany({ where: { email: email.toLowerCase(), identityVerifiedAt: null }, data: { identityVerifiedAt: at } });
}

/** The audit action of an under-age account's refund that failed at the bank. */
export const UNDER_AGE_REFUND_FAILED = "account.under_age_refund_failed";

/** Whether the failure of this refund of the player's is on record already. */
export async function underAgeRefundFailureRecorded(tx: Tx, userId: string, refundId: string): Promise<boolean> {
  const target = `user:${userId}`;
  return (await tx.auditEvent.count({ where: { action: UNDER_AGE_REFUND_FAILED, target, details: { path: ["refundId"], equals: refundId } } })) > 0;
}

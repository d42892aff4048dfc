import type { Raffle, User } from "~/generated/prisma/client";
import { db, type Tx } from "../db.server";

/**
 * What closing an account reads and changes (docs/decisions/035-closing-an-account.md).
 * The service takes the locks in the order every writer takes them: the raffles, the
 * player's row, then the ledger accounts.
 */

/** What the closure checks before it starts: how the player confirms, and whether it is closed already. */
export function accountToClose(userId: string) {
  return db().user.findUnique({ where: { id: userId }, select: { id: true, passwordHash: true, closedAt: true } });
}

/** The active raffles the player holds tickets in (sorted: the order the closure locks them). */
export async function openRafflesOf(client: Tx, userId: string): Promise<string[]> {
  const rows = await client.$queryRaw<Pick<Raffle, "id">[]>`
    SELECT DISTINCT r.id::text AS id FROM entries e JOIN raffles r ON r.id = e.raffle_id
    WHERE e.user_id = ${userId}::uuid AND r.status = 'active' ORDER BY 1`;
  return rows.map((row) => row.id);
}

/** Locks the raffles, in sorted order, as entries and draws do. */
export async function lockRaffles(tx: Tx, raffleIds: string[]): Promise<void> {
  if (raffleIds.length === 0) return;
  await tx.$queryRaw`SELECT id FROM raffles WHERE id = ANY(${raffleIds}::uuid[]) ORDER BY id FOR UPDATE`;
}

/**
 * Locks the player's row without blocking entries' foreign keys (FOR NO KEY UPDATE, as a
 * draw locks its winners) and says whether it is closed already.
 */
export async function lockPlayer(tx: Tx, userId: string): Promise<Pick<User, "closedAt"> | undefined> {
  const rows = await tx.$queryRaw<Pick<User, "closedAt">[]>`
    SELECT closed_at AS "closedAt" FROM users WHERE id = ${userId}::uuid FOR NO KEY UPDATE`;
  return rows[0];
}

/** Withdrawals not yet settled: requested, approved, or with money on its way. */
export function withdrawalsInProgress(tx: Tx, userId: string) {
  return tx.withdrawal.count({ where: { userId, status: { in: ["pending", "approved", "processing"] } } });
}

/** Card payments started since `since` that may still be paid (and credit coins). */
export function paymentsPending(tx: Tx, userId: string, since: Date) {
  return tx.payment.count({ where: { userId, status: "pending", createdAt: { gte: since } } });
}

/**
 * Ends every session and empties the personal fields that no law asks us to keep; the
 * columns without a unique index only, so that entries inserted meanwhile (which take a
 * key-share lock on the row) are not blocked. The ledger, payments, withdrawals (with their
 * masked destination) and the audit trail stay.
 */
export async function closePlayer(tx: Tx, userId: string, now: Date): Promise<{ sessions: number; identities: number }> {
  const sessions = await tx.session.deleteMany({ where: { userId } });
  const identities = await tx.userIdentity.deleteMany({ where: { userId } });
  await tx.depositLimit.deleteMany({ where: { userId } });
  await tx.idempotencyKey.deleteMany({ where: { userId } });
  await tx.withdrawal.updateMany({ where: { userId }, data: { destinationEncrypted: null, cardToken: null, cardExpiry: null } });
  // Mail tokens name the address (and could verify or reset a closed account); mail not yet
  // sent would go to an address the account no longer has: it is never sent, and keeps no address.
  await tx.emailToken.deleteMany({ where: { userId } });
  await tx.passkey.deleteMany({ where: { userId } });
  await tx.webauthnChallenge.deleteMany({ where: { userId } });
  // A second factor and its recovery codes would sign nobody in any more.
  await tx.recoveryCode.deleteMany({ where: { userId } });
  await tx.totpFactor.deleteMany({ where: { userId } });
  await tx.emailOutbox.updateMany({
    where: { userId, status: { not: "sent" } },
    data: { toAddress: tombstoneEmail(userId), data: {}, status: "failed", lastError: "account closed", leaseUntil: null },
  });
  await tx.user.update({
    where: { id: userId },
    data: {
      closedAt: now,
      username: "Closed account",
      usernameRenamedAt: null,
      firstName: null,
      passwordHash: null,
      dateOfBirth: null,
      region: null,
      realityCheckMinutes: null,
      payoutNoticeId: null,
    },
  });
  return { sessions: sessions.count, identities: identities.count };
}

/**
 * The closed account's email becomes a tombstone (so the address may sign up again) and its
 * username no longer reserves a look. These columns carry unique indexes, so the update
 * locks the row against foreign keys: it runs in a transaction of its own, after the
 * closure committed, holding nothing else.
 */
export async function tombstonePlayer(userId: string): Promise<void> {
  await db().user.updateMany({
    where: { id: userId, closedAt: { not: null } },
    data: { email: tombstoneEmail(userId), usernameKey: null },
  });
}

/** A reserved domain (RFC 2606): never an address anyone can sign up with. */
export function tombstoneEmail(userId: string): string {
  return `closed-${userId}@closed.invalid`;
}

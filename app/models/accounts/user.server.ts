import type { User } from "~/generated/prisma/client";
import { db, type Tx } from "../db.server";

/** The fields any part of the app may read; never the password hash. */
export const publicUserSelect = {
  id: true,
  email: true,
  username: true,
  firstName: true,
  totalWinnings: true,
  vipTier: true,
  vipExpiry: true,
  isAdmin: true,
  createdAt: true,
} as const;

type NewUser = {
  email: string;
  passwordHash: string;
  dateOfBirth: Date;
  country: string;
  username?: string;
  /** The username's look-alike key (usernameKey in app/shared/username.ts). */
  usernameKey?: string;
  isAdmin?: boolean;
};

/**
 * Creates the user unless one with this email exists; returns whether it was created. Only
 * the seed's demo users are made this way: their addresses (…@demo.test) take no mail, so
 * they count as verified.
 */
export async function createUserIfAbsent(user: NewUser): Promise<boolean> {
  const email = user.email.toLowerCase();
  const { count } = await db().user.createMany({
    data: [{ ...user, email, termsAcceptedAt: new Date(), emailVerifiedAt: new Date() }],
    skipDuplicates: true,
  });
  return count === 1;
}

export function getUserByEmail(email: string) {
  return db().user.findUnique({ where: { email: email.toLowerCase() }, select: publicUserSelect });
}

/**
 * Locks the player's row: serialises their once-a-day rewards. `NO KEY UPDATE`, not
 * `UPDATE`: inserts that reference the player (their entries' tickets) take a key-share
 * lock on this row after locking the player's account, so a full lock here, taken before
 * the account, deadlocked with the player's own entries (docs/decisions/012-hot-paths.md).
 */
export async function lockUser(tx: Tx, id: string) {
  const rows = await tx.$queryRaw<Pick<User, "id" | "vipTier" | "vipExpiry">[]>`
    SELECT id::text AS id, vip_tier AS "vipTier", vip_expiry AS "vipExpiry" FROM users WHERE id = ${id}::uuid FOR NO KEY UPDATE`;
  return rows[0];
}

/** The player's VIP membership as stored (undefined: no such player). */
export async function vipOf(id: string): Promise<Pick<User, "vipTier" | "vipExpiry"> | undefined> {
  return (await db().user.findUnique({ where: { id }, select: { vipTier: true, vipExpiry: true } })) ?? undefined;
}

/** Stores the player's settings in the caller's transaction; returns what was stored before. */
export async function updateSettings(
  tx: Tx,
  id: string,
  settings: { emailNotifications: boolean; soundEffects: boolean; quickRaffleNotifications: boolean; emailEntryReceipts: boolean },
) {
  const select = { emailNotifications: true, soundEffects: true, quickRaffleNotifications: true, emailEntryReceipts: true } as const;
  const before = await tx.user.findUniqueOrThrow({ where: { id }, select });
  await tx.user.update({ where: { id }, data: settings, select: { id: true } });
  return before;
}

/** What decides whether the player may be paid and how much needs a verified identity (payouts, withdrawals). */
export function userStanding(tx: Tx, id: string) {
  return tx.user.findUnique({ where: { id }, select: { identityVerifiedAt: true, suspendedAt: true, flaggedAt: true, flagReason: true } });
}

export function setIdentityVerifiedAt(tx: Tx, id: string, at: Date) {
  return tx.user.update({ where: { id }, data: { identityVerifiedAt: at }, select: { id: true } });
}

/**
 * Marks the account for the back office's attention, with the reason. A flag set again
 * is always later than the one before (by a millisecond if need be), so a form for the
 * earlier one, cleared by its time, never clears it. `once`: not when the account already
 * carries this reason, so a retry does not renew the flag an admin is reading.
 */
export async function flagUser(tx: Tx, userId: string, reason: string, at: Date, { once = false }: { once?: boolean } = {}): Promise<void> {
  await tx.$executeRaw`
    UPDATE users SET flagged_at = GREATEST(${at}::timestamptz, flagged_at + interval '1 millisecond'), flag_reason = ${reason}
    WHERE id = ${userId}::uuid AND (NOT ${once}::boolean OR flag_reason IS DISTINCT FROM ${reason})`;
}

/** Clears the account's flag if it is still the one the admin saw (set at `flaggedAt`); the reason it cleared, or null. */
export async function clearFlagSeen(tx: Tx, userId: string, flaggedAt: Date): Promise<string | null> {
  const before = await tx.user.findUnique({ where: { id: userId }, select: { flaggedAt: true, flagReason: true } });
  if (before?.flaggedAt?.getTime() !== flaggedAt.getTime()) return null;
  const { count } = await tx.user.updateMany({ where: { id: userId, flaggedAt }, data: { flaggedAt: null, flagReason: null } });
  return count === 1 ? (before.flagReason ?? "") : null;
}

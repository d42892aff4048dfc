import type { EmailToken, User } from "~/generated/prisma/client";
import { db, type Tx } from "../db.server";

/**
 * Single-use tokens sent by mail (password resets, email verification). Only the
 * token's SHA-256 is stored, and for verification the SHA-256 of the row's id and its
 * 6-digit code; a token is used by one UPDATE that checks it is unused and unexpired,
 * so two uses at once cannot both succeed.
 */
export type TokenPurpose = "password_reset" | "verify_email" | "change_email";

export async function insertToken(
  tx: Tx,
  row: { id: string; userId: string; purpose: TokenPurpose; tokenHash: string; codeHash?: string; email: string; expiresAt: Date },
): Promise<void> {
  await tx.emailToken.create({ data: { ...row, codeHash: row.codeHash ?? null }, select: { id: true } });
}

/** Ends the player's unused tokens of this purpose (a new one replaces them; a reset ends them all). */
export function retireTokens(tx: Tx, userId: string, purpose: TokenPurpose, now: Date) {
  return tx.emailToken.updateMany({ where: { userId, purpose, usedAt: null }, data: { usedAt: now } });
}

/** The live token with this hash, without using it (the reset page shows its form). */
export function findLiveToken(tokenHash: string, purpose: TokenPurpose, now: Date) {
  return db().emailToken.findFirst({
    where: { tokenHash, purpose, usedAt: null, expiresAt: { gt: now } },
    select: { id: true, userId: true, email: true },
  });
}

/** Uses the token: the user and address it was for, or undefined when unknown, used or expired. */
export async function useToken(tx: Tx, tokenHash: string, purpose: TokenPurpose, now: Date) {
  const [row] = await tx.$queryRaw<Pick<EmailToken, "userId" | "email">[]>`
    UPDATE email_tokens SET used_at = ${now}
    WHERE token_hash = ${tokenHash} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > ${now}
    RETURNING user_id::text AS "userId", email`;
  return row;
}

/** Uses the player's live verification (or change of address) token whose code matches; the address it was for. */
export async function useVerificationCode(tx: Tx, userId: string, code: string, now: Date, purpose: TokenPurpose = "verify_email") {
  const [row] = await tx.$queryRaw<Pick<EmailToken, "email">[]>`
    UPDATE email_tokens SET used_at = ${now}
    WHERE user_id = ${userId}::uuid AND purpose = ${purpose} AND used_at IS NULL AND expires_at > ${now}
      AND code_hash = encode(sha256(convert_to(id::text || ':' || ${code}, 'UTF8')), 'hex')
    RETURNING email`;
  return row;
}

/** Marks the account's address verified, if it is still the address the token was sent to. */
export function markEmailVerified(tx: Tx, userId: string, email: string, now: Date) {
  return tx.user.updateMany({ where: { id: userId, email, emailVerifiedAt: null }, data: { emailVerifiedAt: now } });
}

export function emailStateOf(userId: string) {
  return db().user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, emailVerifiedAt: true } });
}

export function setPasswordHash(tx: Tx, userId: string, passwordHash: string) {
  return tx.user.update({ where: { id: userId }, data: { passwordHash }, select: { id: true } });
}

export function deleteSessionsOf(tx: Tx, userId: string) {
  return tx.session.deleteMany({ where: { userId } });
}

/** The account for an address asking for a reset (suspended ones included: they get the same answer). */
export function accountByEmail(email: string) {
  return db().user.findUnique({ where: { email: email.toLowerCase() }, select: { id: true, email: true } });
}

/** The account's address and password hash (a change of address asks for the password). */
export function emailAndPasswordOf(userId: string) {
  return db().user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, passwordHash: true, closedAt: true } });
}

/** The new address a live change of address waits on, if any. */
export async function pendingEmailChange(userId: string, now: Date): Promise<string | undefined> {
  const row = await db().emailToken.findFirst({
    where: { userId, purpose: "change_email", usedAt: null, expiresAt: { gt: now } },
    orderBy: { createdAt: "desc" },
    select: { email: true },
  });
  return row?.email;
}

/**
 * Moves the account to its verified new address, verified now; returns the old address, or
 * undefined when the account is closed or another account uses the address by now.
 */
export async function moveToAddress(tx: Tx, userId: string, email: string, now: Date): Promise<string | undefined> {
  const [row] = await tx.$queryRaw<{ old: User["email"] }[]>`
    UPDATE users u SET email = ${email}, email_verified_at = ${now}
    FROM (SELECT email AS old FROM users WHERE id = ${userId}::uuid FOR UPDATE) before
    WHERE u.id = ${userId}::uuid AND u.closed_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM users other WHERE other.email = ${email} AND other.id <> u.id)
    RETURNING before.old AS old`;
  return row?.old;
}

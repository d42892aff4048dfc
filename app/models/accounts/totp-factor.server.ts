import { db } from "../db.server";

/**
 * TOTP factors and recovery codes. Every change that spends something (a time
 * step, a recovery code) is one conditional UPDATE, so of any number of concurrent
 * requests carrying the same code at most one is accepted.
 */

/** The user's factor: confirmed or waiting for its first code (pending). */
export function findTotpFactor(userId: string) {
  return db().totpFactor.findUnique({
    where: { userId },
    select: { secretSealed: true, confirmedAt: true, lastStep: true },
  });
}

export async function hasConfirmedTotp(userId: string): Promise<boolean> {
  return (await db().totpFactor.count({ where: { userId, confirmedAt: { not: null } } })) > 0;
}

/** A player's factor (not an admin's, which the admin gate asks for instead). */
export async function hasPlayerTotp(userId: string): Promise<boolean> {
  return (await db().totpFactor.count({ where: { userId, confirmedAt: { not: null }, user: { isAdmin: false } } })) > 0;
}

/** Starts (or restarts) an enrolment: a new secret, not yet a factor. Refused (false) once confirmed. */
export async function startTotpEnrolment(userId: string, secretSealed: string): Promise<boolean> {
  const rows = await db().$executeRaw`
    INSERT INTO totp_factors (user_id, secret_sealed) VALUES (${userId}::uuid, ${secretSealed})
    ON CONFLICT (user_id) DO UPDATE SET secret_sealed = EXCLUDED.secret_sealed, last_step = NULL, created_at = now()
    WHERE totp_factors.confirmed_at IS NULL`;
  return rows === 1;
}

/**
 * Spends a time step: true when `step` is later than the last accepted one (and the factor
 * is in the state asked for), in one compare-and-set. `confirm` also makes a pending factor
 * the user's factor, with its recovery codes replaced, in the same transaction.
 */
export async function acceptStep(userId: string, step: bigint, at: Date, confirm?: { codeHashes: string[] }): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const accepted = await tx.totpFactor.updateMany({
      where: {
        userId,
        confirmedAt: confirm ? null : { not: null },
        OR: [{ lastStep: null }, { lastStep: { lt: step } }],
      },
      data: confirm ? { lastStep: step, confirmedAt: at } : { lastStep: step },
    });
    if (accepted.count !== 1) return false;
    if (confirm) {
      await tx.recoveryCode.deleteMany({ where: { userId } });
      await tx.recoveryCode.createMany({ data: confirm.codeHashes.map((codeHash) => ({ userId, codeHash })) });
    }
    return true;
  });
}

/** Spends a recovery code once: true for the one request that marked it used. */
export async function useRecoveryCode(userId: string, codeHash: string, at: Date): Promise<boolean> {
  const used = await db().recoveryCode.updateMany({ where: { userId, codeHash, usedAt: null }, data: { usedAt: at } });
  return used.count === 1;
}

export function unusedRecoveryCodes(userId: string) {
  return db().recoveryCode.count({ where: { userId, usedAt: null } });
}

/** Turns the factor off (a player's choice, after a code): the secret and the codes go. */
export async function removeTotpFactor(userId: string): Promise<void> {
  await db().$transaction([db().recoveryCode.deleteMany({ where: { userId } }), db().totpFactor.deleteMany({ where: { userId } })]);
}

/** The demo admin's factor, seeded confirmed with the README's secret, unless one exists. */
export async function seedConfirmedTotp(userId: string, secretSealed: string, at: Date): Promise<void> {
  await db().totpFactor.upsert({ where: { userId }, create: { userId, secretSealed, confirmedAt: at }, update: {} });
}

import type { Passkey, WebauthnChallenge } from "~/generated/prisma/client";
import { db, type Tx } from "../db.server";

/**
 * Passkeys (WebAuthn credentials) and their ceremonies' challenges
 * (docs/decisions/037-passkeys-and-email-change.md). Every read a player can trigger is
 * scoped by owner; the public key is never sent back to the browser.
 */
export type ChallengePurpose = "register" | "sign_in";

/** Stores a challenge (and sweeps expired ones: they live five minutes). */
export async function createChallenge(row: { purpose: ChallengePurpose; userId?: string; challenge: string; expiresAt: Date }, now: Date): Promise<string> {
  await db().webauthnChallenge.deleteMany({ where: { expiresAt: { lte: now } } });
  const created = await db().webauthnChallenge.create({ data: { ...row, userId: row.userId ?? null }, select: { id: true } });
  return created.id;
}

/**
 * Takes a challenge: it is deleted whatever comes next, so it serves one ceremony only.
 * Undefined when unknown, used, expired, or for another purpose or user.
 */
export async function takeChallenge(id: string, purpose: ChallengePurpose, userId: string | null, now: Date): Promise<string | undefined> {
  const [row] = await db().$queryRaw<Pick<WebauthnChallenge, "challenge">[]>`
    DELETE FROM webauthn_challenges
    WHERE id = ${id}::uuid AND purpose = ${purpose} AND expires_at > ${now}
      AND user_id IS NOT DISTINCT FROM ${userId}::uuid
    RETURNING challenge`;
  return row?.challenge;
}

const listed = { id: true, name: true, deviceType: true, backedUp: true, createdAt: true, lastUsedAt: true } as const;

export function listPasskeys(userId: string) {
  return db().passkey.findMany({ where: { userId }, orderBy: { createdAt: "asc" }, select: listed });
}

export function credentialsOf(userId: string) {
  return db().passkey.findMany({ where: { userId }, select: { credentialId: true, transports: true } });
}

export function insertPasskey(
  tx: Tx,
  row: {
    userId: string;
    credentialId: string;
    publicKey: Uint8Array<ArrayBuffer>;
    counter: bigint;
    transports: string[];
    deviceType: string;
    backedUp: boolean;
    name: string;
  },
) {
  return tx.passkey.create({ data: row, select: listed });
}

/** The passkey with this credential id, with what a sign-in checks about its account. */
export function passkeyForSignIn(credentialId: string) {
  return db().passkey.findUnique({
    where: { credentialId },
    select: {
      id: true,
      userId: true,
      credentialId: true,
      publicKey: true,
      counter: true,
      transports: true,
      user: { select: { suspendedAt: true, closedAt: true } },
    },
  });
}

/**
 * Records a use: the new counter and backup state, if the counter is still the one the
 * check read (two uses of one assertion at once cannot both pass).
 */
export async function recordUse(
  id: string,
  seenCounter: bigint,
  next: { counter: bigint; backedUp: boolean; deviceType: string },
  now: Date,
): Promise<boolean> {
  const updated = await db().passkey.updateMany({
    where: { id, counter: seenCounter },
    data: { counter: next.counter, backedUp: next.backedUp, deviceType: next.deviceType, lastUsedAt: now },
  });
  return updated.count === 1;
}

/** Deletes the player's own passkey; its name, or undefined when it is not theirs. */
export async function deletePasskey(tx: Tx, userId: string, id: string): Promise<string | undefined> {
  const [row] = await tx.$queryRaw<Pick<Passkey, "name">[]>`DELETE FROM passkeys WHERE id = ${id}::uuid AND user_id = ${userId}::uuid RETURNING name`;
  return row?.name;
}

/** Whether the session was signed in with a passkey that verified its user. */
export async function sessionPasskeyVerified(sessionId: string): Promise<boolean> {
  const row = await db().session.findUnique({ where: { id: sessionId }, select: { passkeyVerifiedAt: true } });
  return row?.passkeyVerifiedAt != null;
}

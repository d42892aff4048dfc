import { createHash, randomBytes } from "node:crypto";
import { sessionPasskeyVerified } from "~/models/accounts/passkey.server";
import * as sessions from "~/models/accounts/session.server";
import * as readModel from "~/infra/read-model.server";
import { getEnv } from "~/infra/env.server";
import { placesServed } from "~/shared/jurisdictions";

/**
 * Sessions live in the database; the cookie holds only a random token, and the
 * database only the token's SHA-256. Sessions expire, rotate at sign-in, and can be
 * revoked (sign out, sign out everywhere, suspension). The cookie is app/web/auth.server.ts's.
 */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** The admin gate holds this long. */
export const ADMIN_GATE_TTL_MS = 30 * 60 * 1000;
/** A new stretch of play begins after this long without a request. */
export const PLAY_IDLE_GAP_MS = 30 * 60 * 1000;
/** How often a session's last request is written down. */
const PLAY_SEEN_PRECISION_MS = 60 * 1000;

export type SessionUser = NonNullable<Awaited<ReturnType<typeof sessions.findSession>>>["user"];
export type CurrentSession = {
  id: string;
  adminGatePassedAt: Date | null;
  /** When this stretch of play began, and when its last reality check was dismissed. */
  playStartedAt: Date;
  realityCheckAt: Date | null;
  user: SessionUser;
};

export const hashSessionToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * The live session whose token hashes to `tokenHash`, or undefined (none, expired, or its
 * player suspended). `fromMemory`: a read may take it from this instance's read model.
 */
export async function findCurrentSession(tokenHash: string, { fromMemory }: { fromMemory: boolean }): Promise<CurrentSession | undefined> {
  const now = new Date();
  const find = () => sessions.findSession(tokenHash, now, placesServed(getEnv().ALLOWED_COUNTRIES));
  // Taken before the read: what is stored below must not be older than a change heard meanwhile.
  const version = readModel.currentVersion();
  const session = fromMemory ? await readModel.session(tokenHash, now, find) : await find();
  if (!session || session.user.suspendedAt) return undefined;
  if (now.getTime() - session.playSeenAt.getTime() < PLAY_SEEN_PRECISION_MS) return session;
  const play = await sessions.touchPlay(session.id, now, PLAY_IDLE_GAP_MS);
  if (!play) return undefined;
  const touched = { ...session, ...play, playSeenAt: now };
  if (fromMemory) readModel.storeSession(tokenHash, touched, version);
  return touched;
}

/**
 * After a write: the session and the raffle lists are read again next time, so the player
 * reads what they did (an entry's, `keepsSession`, neither). See docs/decisions/013-reads-from-memory.md.
 */
export function forgetAfterWrite(tokenHash: string | undefined, { keepsSession = false }: { keepsSession?: boolean } = {}): void {
  readModel.afterWrite(tokenHash, { keepsSession });
}

/**
 * Whether this session was signed in with a passkey whose authenticator verified its user
 * (PIN or biometrics): possession and a second factor in one. For the admin gate
 * to count an admin's passkey as their second factor; not wired to it yet.
 */
export function signedInWithPasskey(session: Pick<CurrentSession, "id">): Promise<boolean> {
  return sessionPasskeyVerified(session.id);
}

/**
 * Opens a session for the user and returns its token (rotation: the session the browser
 * carried, `previousTokenHash`, is ended).
 */
export async function openSession({
  userId,
  previousTokenHash,
  userAgent,
  ip,
  now = new Date(),
  passkeyVerified = false,
}: {
  userId: string;
  previousTokenHash?: string;
  userAgent?: string;
  ip?: string;
  now?: Date;
  passkeyVerified?: boolean;
}): Promise<string> {
  if (previousTokenHash) await sessions.deleteSession(previousTokenHash);
  const token = randomBytes(32).toString("base64url");
  await sessions.createSessionRow({
    tokenHash: hashSessionToken(token),
    userId,
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
    userAgent: userAgent?.slice(0, 300),
    ip,
    passkeyVerifiedAt: passkeyVerified ? now : undefined,
  });
  return token;
}

export async function closeSession(tokenHash: string): Promise<void> {
  await sessions.deleteSession(tokenHash);
}

export async function endAllSessions(userId: string): Promise<void> {
  await sessions.deleteUserSessions(userId);
  // At once on this instance; the others hear it from the database.
  readModel.forgetPlayer(userId);
}

/** Whether a signed-in user still has to give their date of birth and country, or accept the Terms. */
export function needsOnboarding(user: Pick<SessionUser, "dateOfBirth" | "termsAcceptedAt" | "country">): boolean {
  return user.dateOfBirth === null || user.termsAcceptedAt === null || user.country === null;
}

/** Whether the session is an admin's that passed the admin gate within the last 30 minutes. */
export function adminGateOpen(session: Pick<CurrentSession, "user" | "adminGatePassedAt">, now = new Date()): boolean {
  return session.user.isAdmin && session.adminGatePassedAt !== null && now.getTime() - session.adminGatePassedAt.getTime() < ADMIN_GATE_TTL_MS;
}

import { db } from "./db.server";
import { publicUserSelect } from "./user.server";

/** What the guards need to know about the signed-in user: the public fields and the account's state. */
const sessionUserSelect = { ...publicUserSelect, dateOfBirth: true, termsAcceptedAt: true, country: true, suspendedAt: true, realityCheckMinutes: true, excludedUntil: true, exclusionKind: true } as const;

export function createSessionRow(data: { tokenHash: string; userId: string; expiresAt: Date; userAgent?: string; ip?: string }) {
  return db().session.create({ data, select: { id: true } });
}

/** The live session for this token hash, with its user; expired ones are not returned. */
export function findSession(tokenHash: string, now: Date) {
  return db().session.findFirst({
    where: { tokenHash, expiresAt: { gt: now } },
    select: {
      id: true,
      adminGatePassedAt: true,
      expiresAt: true,
      playStartedAt: true,
      playSeenAt: true,
      realityCheckAt: true,
      user: { select: sessionUserSelect },
    },
  });
}

/**
 * Notes that the session was seen at `now`: after `idleGapMs` without a request a new
 * stretch of play begins (and its reality checks start over).
 */
export async function touchPlay(sessionId: string, now: Date, idleGapMs: number) {
  const idleSince = new Date(now.getTime() - idleGapMs);
  const [row] = await db().$queryRaw<{ playStartedAt: Date; realityCheckAt: Date | null }[]>`
    UPDATE sessions SET
      play_started_at = CASE WHEN play_seen_at < ${idleSince} THEN ${now} ELSE play_started_at END,
      reality_check_at = CASE WHEN play_seen_at < ${idleSince} THEN NULL ELSE reality_check_at END,
      play_seen_at = ${now}
    WHERE id = ${sessionId}::uuid
    RETURNING play_started_at AS "playStartedAt", reality_check_at AS "realityCheckAt"`;
  return row;
}

export function markRealityCheckSeen(sessionId: string, at: Date) {
  return db().session.updateMany({ where: { id: sessionId }, data: { realityCheckAt: at } });
}

export function deleteSession(tokenHash: string) {
  return db().session.deleteMany({ where: { tokenHash } });
}

export function deleteUserSessions(userId: string) {
  return db().session.deleteMany({ where: { userId } });
}

export function markAdminGatePassed(sessionId: string, at: Date) {
  return db().session.update({ where: { id: sessionId }, data: { adminGatePassedAt: at } });
}

export function deleteExpiredSessions(now: Date) {
  return db().session.deleteMany({ where: { expiresAt: { lte: now } } });
}

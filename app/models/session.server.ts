import { db } from "./db.server";
import { publicUserSelect } from "./user.server";

/** What the guards need to know about the signed-in user: the public fields and the account's state. */
const sessionUserSelect = { ...publicUserSelect, dateOfBirth: true, termsAcceptedAt: true, suspendedAt: true } as const;

export function createSessionRow(data: { tokenHash: string; userId: string; expiresAt: Date; userAgent?: string; ip?: string }) {
  return db().session.create({ data, select: { id: true } });
}

/** The live session for this token hash, with its user; expired ones are not returned. */
export function findSession(tokenHash: string, now: Date) {
  return db().session.findFirst({
    where: { tokenHash, expiresAt: { gt: now } },
    select: { id: true, adminGatePassedAt: true, expiresAt: true, user: { select: sessionUserSelect } },
  });
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

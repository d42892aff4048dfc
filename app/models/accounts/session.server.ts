import type { Session, User } from "~/generated/prisma/client";
import type { Places } from "~/shared/jurisdictions";
import { db } from "../db.server";
import { publicUserSelect } from "./user.server";

/** What the guards need to know about the signed-in user: the public fields and the account's state. */
export const sessionUserSelect = {
  ...publicUserSelect,
  dateOfBirth: true,
  termsAcceptedAt: true,
  country: true,
  region: true,
  suspendedAt: true,
  realityCheckMinutes: true,
  excludedUntil: true,
  exclusionKind: true,
  payoutNoticeId: true,
  emailNotifications: true,
  soundEffects: true,
  quickRaffleNotifications: true,
  emailEntryReceipts: true,
} as const;

/** The user's columns, whether outcomes they have not been told about are waiting, and whether they may play from where they live. */
export type SessionUserRow = Pick<User, keyof typeof sessionUserSelect> & {
  hasOutcomeNews: boolean;
  /** Whether the place the player lives is still served (may_play_from). */
  mayPlay: boolean;
};
export type SessionRow = Pick<Session, "id" | "adminGatePassedAt" | "expiresAt" | "playStartedAt" | "playSeenAt" | "realityCheckAt"> & {
  user: SessionUserRow;
};

/** Live sessions one account may hold; a sign-in beyond them ends the oldest. */
export const SESSIONS_PER_ACCOUNT = 10;

/**
 * A new session, and the account's oldest ended beyond SESSIONS_PER_ACCOUNT (with any
 * expired ones), under a lock per account so that sign-ins at once cannot pass the cap together.
 */
export function createSessionRow(data: { tokenHash: string; userId: string; expiresAt: Date; userAgent?: string; ip?: string; passkeyVerifiedAt?: Date }) {
  return db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`sessions:${data.userId}`}, 0))`;
    const created = await tx.session.create({ data, select: { id: true } });
    await tx.$executeRaw`
      DELETE FROM sessions WHERE user_id = ${data.userId}::uuid AND id <> ${created.id}::uuid AND id NOT IN (
        SELECT id FROM sessions WHERE user_id = ${data.userId}::uuid AND id <> ${created.id}::uuid AND expires_at > now()
        ORDER BY created_at DESC, id DESC LIMIT ${SESSIONS_PER_ACCOUNT - 1})`;
    return created;
  });
}

/**
 * The live session for this token hash, with its user (and whether they may play from
 * where they live, given the places served); expired ones are not returned.
 * One statement: every signed-in request runs it, and Prisma's nested select takes two
 * round trips (docs/decisions/012-hot-paths.md).
 */
export async function findSession(tokenHash: string, now: Date, places: Places): Promise<SessionRow | undefined> {
  const [row] = await db().$queryRaw<(Omit<SessionRow, "user"> & { [K in keyof SessionUserRow as `u_${K}`]: SessionUserRow[K] })[]>`
    SELECT s.id::text AS id, s.admin_gate_passed_at AS "adminGatePassedAt", s.expires_at AS "expiresAt",
           s.play_started_at AS "playStartedAt", s.play_seen_at AS "playSeenAt", s.reality_check_at AS "realityCheckAt",
           u.id::text AS "u_id", u.email AS "u_email", u.username AS "u_username", u.first_name AS "u_firstName",
           u.total_winnings AS "u_totalWinnings", u.vip_tier::text AS "u_vipTier", u.vip_expiry AS "u_vipExpiry",
           u.is_admin AS "u_isAdmin", u.created_at AS "u_createdAt", u.date_of_birth AS "u_dateOfBirth",
           u.terms_accepted_at AS "u_termsAcceptedAt", u.country AS "u_country", u.region AS "u_region", u.suspended_at AS "u_suspendedAt",
           u.reality_check_minutes AS "u_realityCheckMinutes", u.excluded_until AS "u_excludedUntil",
           u.exclusion_kind AS "u_exclusionKind", u.payout_notice_id::text AS "u_payoutNoticeId",
           u.email_notifications AS "u_emailNotifications", u.sound_effects AS "u_soundEffects",
           u.quick_raffle_notifications AS "u_quickRaffleNotifications", u.email_entry_receipts AS "u_emailEntryReceipts",
           EXISTS (SELECT 1 FROM outcome_notices n WHERE n.user_id = u.id) AS "u_hasOutcomeNews",
           may_play_from(u.country, u.region, ${places.countries}::text[], ${places.regions}::text[]) AS "u_mayPlay"
    FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.token_hash = ${tokenHash} AND s.expires_at > ${now}`;
  if (!row) return undefined;
  // The user's columns come back prefixed "u_": gathered into the nested user Prisma would return.
  const session: Record<string, unknown> = {};
  const user: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (column.startsWith("u_")) user[column.slice(2)] = value;
    else session[column] = value;
  }
  return { ...(session as Omit<SessionRow, "user">), user: user as SessionUserRow };
}

/**
 * Notes that the session was seen at `now`: after `idleGapMs` without a request a new
 * stretch of play begins (and its reality checks start over).
 */
export async function touchPlay(sessionId: string, now: Date, idleGapMs: number) {
  const idleSince = new Date(now.getTime() - idleGapMs);
  const [row] = await db().$queryRaw<Pick<Session, "playStartedAt" | "realityCheckAt">[]>`
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

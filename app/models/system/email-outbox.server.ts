import type { EmailOutbox, Prisma } from "~/generated/prisma/client";
import { db, type Tx } from "../db.server";

/**
 * The email outbox (docs/decisions/032-email-outbox-and-recovery.md): rows written in the
 * transaction of the action that causes them, claimed by senders with a lease.
 */
export type NewMail = {
  /** Unique per (event, kind): a second write for the same event is ignored. */
  key: string;
  kind: string;
  userId: string;
  data: Prisma.InputJsonObject;
  /** Optional messages are written only for players whose "Email notifications" setting is on. */
  optional: boolean;
  /** Another address than the account's (a verification of a new address). */
  to?: string;
};

/**
 * Writes one message for the player, to their address as it is now. The one place that
 * reads the "Email notifications" setting: an optional message for a player who turned
 * it off is not written at all.
 */
export async function insertMail(tx: Tx, mail: NewMail): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO email_outbox (idempotency_key, kind, user_id, to_address, data)
    SELECT ${mail.key}, ${mail.kind}, u.id, coalesce(${mail.to ?? null}::text, u.email), ${JSON.stringify(mail.data)}::jsonb
    FROM users u WHERE u.id = ${mail.userId}::uuid AND (${!mail.optional} OR u.email_notifications)
    ON CONFLICT (idempotency_key) DO NOTHING`;
}

/** A message to an address that belongs to no account (the answer to a reset asked for it). */
export async function insertMailToAddress(tx: Tx, mail: { key: string; kind: string; to: string; data: Prisma.InputJsonObject }): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO email_outbox (idempotency_key, kind, to_address, data)
    VALUES (${mail.key}, ${mail.kind}, ${mail.to}, ${JSON.stringify(mail.data)}::jsonb)
    ON CONFLICT (idempotency_key) DO NOTHING`;
}

/**
 * A batch of draws' win messages, in the draw's transaction: one statement, "win:<raffle>"
 * each, only for winners whose notifications are on.
 */
export async function insertWinMails(tx: Tx, wins: { raffleId: string; winnerId: string; coins: string }[]): Promise<void> {
  if (wins.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO email_outbox (idempotency_key, kind, user_id, to_address, data)
    SELECT 'win:' || w.raffle_id, 'win', u.id, u.email, jsonb_build_object('raffleId', w.raffle_id, 'coins', w.coins)
    FROM unnest(${wins.map((w) => w.raffleId)}::text[], ${wins.map((w) => w.winnerId)}::uuid[], ${wins.map((w) => w.coins)}::text[])
         AS w(raffle_id, winner_id, coins)
    JOIN users u ON u.id = w.winner_id
    WHERE u.email_notifications
    ON CONFLICT (idempotency_key) DO NOTHING`;
}

/** `data` is always a JSON object (insertMail writes one), narrower than the column's JSON type. */
export type ClaimedMail = Pick<EmailOutbox, "id" | "kind" | "toAddress" | "attempts" | "createdAt"> & { data: Record<string, unknown> };

/**
 * Claims up to `limit` due messages for `leaseMs`: pending, due, and not leased to a
 * sender now (a lease that ran out belongs to a sender that died). SKIP LOCKED: senders
 * on other instances take other rows. The claim commits before sending, so a crash
 * after it leaves the row to be claimed again when the lease ends.
 */
export function claimDueMail(now: Date, limit: number, leaseMs: number): Promise<ClaimedMail[]> {
  const leaseUntil = new Date(now.getTime() + leaseMs);
  return db().$queryRaw<ClaimedMail[]>`
    UPDATE email_outbox o SET lease_until = ${leaseUntil}, attempts = o.attempts + 1
    WHERE o.id IN (
      SELECT id FROM email_outbox
      WHERE status = 'pending' AND next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until <= ${now})
      ORDER BY next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING o.id::text AS id, o.kind, o.to_address AS "toAddress", o.data, o.attempts, o.created_at AS "createdAt"`;
}

/**
 * Sent: only by the claim that holds it (the same attempt), so a late sender changes nothing.
 * A sent message's secrets (a reset or verification token, a code) are dropped: from then on
 * only the mailbox holds them, and the database only their hashes.
 */
export function markSent(id: string, attempts: number, now: Date) {
  return db().$executeRaw`
    UPDATE email_outbox SET status = 'sent', sent_at = ${now}, lease_until = NULL, last_error = NULL,
      data = data - 'token' - 'code'
    WHERE id = ${id}::uuid AND attempts = ${attempts} AND status = 'pending'`;
}

/** Not sent: tried again at `retryAt`, or given up (failed) when there is none. */
export function markNotSent(id: string, attempts: number, error: string, retryAt: Date | null) {
  return db().$executeRaw`
    UPDATE email_outbox SET lease_until = NULL, last_error = ${error.slice(0, 500)},
      status = CASE WHEN ${retryAt}::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
      next_attempt_at = coalesce(${retryAt}::timestamptz, next_attempt_at)
    WHERE id = ${id}::uuid AND attempts = ${attempts} AND status = 'pending'`;
}

/** The next time a message is due (to sleep until then), if any is pending. */
export async function nextMailDue(): Promise<Date | undefined> {
  const [row] = await db().$queryRaw<{ due: Date | null }[]>`
    SELECT min(greatest(next_attempt_at, coalesce(lease_until, next_attempt_at))) AS due FROM email_outbox WHERE status = 'pending'`;
  return row?.due ?? undefined;
}

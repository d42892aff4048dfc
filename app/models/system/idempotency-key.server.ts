import type { Prisma } from "~/generated/prisma/client";
import { db } from "../db.server";

/** Idempotency-Key rows (docs/decisions/010-idempotency-keys.md): claimed first, completed with the first response. */
export type StoredResponse = { status: number; headers: Record<string, string[]>; body: string };

export type KeyRecord = { requestHash: string; response: StoredResponse | null };

/** Expired rows removed per claim: housekeeping that stays small whatever the backlog. */
const PURGE_BATCH = 100;

/**
 * Claims (user, key) for a request: true when this caller may run the action. A live row
 * (in progress or completed) is left alone; an expired one is taken over. One statement,
 * so of any number of concurrent claims exactly one wins.
 */
export async function claimKey(userId: string, key: string, requestHash: string, now: Date, expiresAt: Date): Promise<boolean> {
  await db().$executeRaw`
    DELETE FROM idempotency_keys WHERE ctid IN (
      SELECT ctid FROM idempotency_keys WHERE expires_at <= ${now} LIMIT ${PURGE_BATCH} FOR UPDATE SKIP LOCKED)`;
  const claimed = await db().$queryRaw<{ claimed: boolean }[]>`
    INSERT INTO idempotency_keys (user_id, key, request_hash, created_at, expires_at)
    VALUES (${userId}::uuid, ${key}, ${requestHash}, ${now}, ${expiresAt})
    ON CONFLICT (user_id, key) DO UPDATE SET
      request_hash = EXCLUDED.request_hash, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
      response_status = NULL, response_headers = NULL, response_body = NULL, completed_at = NULL
      WHERE idempotency_keys.expires_at <= ${now}
    RETURNING true AS claimed`;
  return claimed.length === 1;
}

/** The live row for (user, key), if any. */
export async function findKey(userId: string, key: string, now: Date): Promise<KeyRecord | undefined> {
  const row = await db().idempotencyKey.findUnique({
    where: { userId_key: { userId, key } },
    select: { requestHash: true, responseStatus: true, responseHeaders: true, responseBody: true, expiresAt: true },
  });
  if (!row || row.expiresAt <= now) return undefined;
  return {
    requestHash: row.requestHash,
    response:
      row.responseStatus === null
        ? null
        : { status: row.responseStatus, headers: (row.responseHeaders ?? {}) as Record<string, string[]>, body: row.responseBody ?? "" },
  };
}

export async function completeKey(userId: string, key: string, response: StoredResponse, now: Date): Promise<void> {
  await db().idempotencyKey.update({
    where: { userId_key: { userId, key } },
    data: {
      responseStatus: response.status,
      responseHeaders: response.headers as Prisma.InputJsonValue,
      responseBody: response.body,
      completedAt: now,
    },
  });
}

/** Gives the key back (the action failed in a way worth retrying): the next request with it runs afresh. */
export async function releaseKey(userId: string, key: string): Promise<void> {
  await db().idempotencyKey.deleteMany({ where: { userId, key, responseStatus: null } });
}

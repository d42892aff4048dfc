import { db } from "./db.server";

/** Counts one hit in the key's current window and returns the window's count. */
export async function hit(key: string, windowStart: Date): Promise<number> {
  const rows = await db().$queryRaw<{ count: number }[]>`
    INSERT INTO rate_limit_buckets (key, window_start, count) VALUES (${key}, ${windowStart}, 1)
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_buckets.count + 1
    RETURNING count`;
  return rows[0]!.count;
}

export async function count(key: string, windowStart: Date): Promise<number> {
  const row = await db().rateLimitBucket.findUnique({ where: { key_windowStart: { key, windowStart } } });
  return row?.count ?? 0;
}

export function reset(key: string, windowStart: Date) {
  return db().rateLimitBucket.deleteMany({ where: { key, windowStart } });
}

export function deleteOldBuckets(before: Date) {
  return db().rateLimitBucket.deleteMany({ where: { windowStart: { lt: before } } });
}

import { db } from "./db.server";

/** Counts one hit in the key's current window; returns that window's count and the previous window's, in one round trip. */
export async function hitWithPrevious(key: string, windowStart: Date, previousStart: Date): Promise<{ count: number; previous: number }> {
  const rows = await db().$queryRaw<{ count: number; previous: number }[]>`
    WITH hit AS (
      INSERT INTO rate_limit_buckets (key, window_start, count) VALUES (${key}, ${windowStart}, 1)
      ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_buckets.count + 1
      RETURNING count
    )
    SELECT (SELECT count FROM hit) AS count,
           coalesce((SELECT count FROM rate_limit_buckets WHERE key = ${key} AND window_start = ${previousStart}), 0) AS previous`;
  return rows[0]!;
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

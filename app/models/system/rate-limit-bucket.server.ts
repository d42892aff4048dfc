import type { RateLimitBucket } from "~/generated/prisma/client";
import { db } from "../db.server";

/**
 * Admits one hit in the key's current window unless rate_limit_exceeds (the database's one
 * statement of the sliding-window comparison, prisma/sql/functions/rate_limit_exceeds.sql)
 * says that counting it would pass `max`: one statement, so concurrent hits are counted and
 * judged one after another on the bucket's row lock. A refused hit is not counted.
 * Returns the window's count with this hit, or null when refused.
 */
export async function admit(key: string, window: { start: Date; previous: Date; overlap: number }, max: number): Promise<number | null> {
  const rows = await db().$queryRaw<Pick<RateLimitBucket, "count">[]>`
    WITH earlier AS (
      SELECT coalesce((SELECT count FROM rate_limit_buckets WHERE key = ${key} AND window_start = ${window.previous}), 0) AS count
    )
    INSERT INTO rate_limit_buckets (key, window_start, count)
    SELECT ${key}, ${window.start}, 1 FROM earlier WHERE NOT rate_limit_exceeds(1, earlier.count, ${window.overlap}::float8, ${max}::int)
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_buckets.count + 1
      WHERE NOT rate_limit_exceeds(rate_limit_buckets.count + 1, (SELECT count FROM earlier), ${window.overlap}::float8, ${max}::int)
    RETURNING count`;
  return rows[0]?.count ?? null;
}

/** Takes back one admitted hit (an attempt that turned out not to count, such as the right key). */
export async function giveBack(key: string, windowStart: Date): Promise<void> {
  await db().$executeRaw`
    UPDATE rate_limit_buckets SET count = count - 1 WHERE key = ${key} AND window_start = ${windowStart} AND count > 0`;
}

export function deleteOldBuckets(before: Date) {
  return db().rateLimitBucket.deleteMany({ where: { windowStart: { lt: before } } });
}

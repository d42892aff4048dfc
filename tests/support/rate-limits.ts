import { db } from "~/models/db.server";
import type { Limit } from "~/services/system/rate-limit.server";

/**
 * Puts `subject` far over `limit` for the next `seconds` (one bucket per window, each
 * ten times the limit), so a test's request is refused however slowly the machine runs.
 */
export async function saturate(limit: Limit, subject: string, seconds = 60): Promise<void> {
  const length = limit.windowSeconds * 1000;
  const first = Math.floor(Date.now() / length) * length - length;
  const windows = Math.ceil((seconds * 1000) / length) + 2;
  await db().rateLimitBucket.createMany({
    data: Array.from({ length: windows }, (_, i) => ({ key: `${limit.name}:${subject}`, windowStart: new Date(first + i * length), count: limit.max * 10 })),
    skipDuplicates: true,
  });
}

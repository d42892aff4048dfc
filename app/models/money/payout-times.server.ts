import { db } from "../db.server";

/**
 * What /fair publishes of payouts (issue 34, item 4): how long completed withdrawals took
 * from request to money sent (the last of its legs settled), per method, and how many were
 * refused, per reason. Figures only: no player, amount or destination.
 */
export type SendTimes = { method: string | null; count: number; medianSeconds: number; p95Seconds: number };

/** Withdrawals whose money was all sent since `since`, per method (null: wholly refunded to cards). */
export function sendTimesSince(since: Date): Promise<SendTimes[]> {
  return db().$queryRaw<SendTimes[]>`
    WITH sent AS (
      SELECT w.method::text AS method, extract(epoch FROM max(l.settled_at) - w.created_at)::float8 AS seconds
      FROM withdrawals w JOIN payout_legs l ON l.withdrawal_id = w.id
      WHERE w.status = 'completed'
      GROUP BY w.id
      HAVING max(l.settled_at) >= ${since}
    )
    SELECT method, count(*)::int AS count,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds)::float8 AS "medianSeconds",
           percentile_cont(0.95) WITHIN GROUP (ORDER BY seconds)::float8 AS "p95Seconds"
    FROM sent GROUP BY method ORDER BY method NULLS LAST`;
}

/** Withdrawals rejected since `since`, counted per reason as the admin gave it. */
export function refusalsSince(since: Date): Promise<{ reason: string | null; count: number }[]> {
  return db().$queryRaw<{ reason: string | null; count: number }[]>`
    SELECT reject_reason AS reason, count(*)::int AS count
    FROM withdrawals WHERE status = 'rejected' AND decided_at >= ${since}
    GROUP BY reject_reason`;
}

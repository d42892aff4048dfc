import { refusalsSince, sendTimesSince } from "~/models/money/payout-times.server";
import { REJECT_REASONS } from "~/shared/payout-decisions";
import { METHOD_LABELS, type WithdrawalMethod } from "~/shared/withdrawal-rules";

/** The window /fair's payout figures cover. */
export const PAYOUT_WINDOW_DAYS = 30;

/** An admin's own words after a listed reason are never published: only the reason counts. */
export const OTHER_REASON = "Another reason (written by the admin)";

export type PayoutTimes = {
  days: number;
  methods: { label: string; count: number; medianSeconds: number; p95Seconds: number }[];
  refused: { reason: string; count: number }[];
};

/**
 * /fair's "Payout times" (issue 34, item 4): from the database, the median and
 * 95th percentile time from request to money sent per method over the last 30 days, and
 * the refusals per listed reason (counts only).
 */
export async function publishedPayoutTimes(now = new Date()): Promise<PayoutTimes> {
  const since = new Date(now.getTime() - PAYOUT_WINDOW_DAYS * 86_400_000);
  const [times, refusals] = await Promise.all([sendTimesSince(since), refusalsSince(since)]);
  const counts = new Map<string, number>();
  for (const row of refusals) {
    const reason = REJECT_REASONS.find((listed) => row.reason === listed || row.reason?.startsWith(`${listed}. `)) ?? OTHER_REASON;
    counts.set(reason, (counts.get(reason) ?? 0) + row.count);
  }
  return {
    days: PAYOUT_WINDOW_DAYS,
    methods: times.map((t) => ({
      label: t.method === null ? "Back to your cards (refunds)" : (METHOD_LABELS[t.method as WithdrawalMethod] ?? t.method),
      count: t.count,
      medianSeconds: Math.round(t.medianSeconds),
      p95Seconds: Math.round(t.p95Seconds),
    })),
    refused: [...REJECT_REASONS, OTHER_REASON].flatMap((reason) => (counts.has(reason) ? [{ reason, count: counts.get(reason)! }] : [])),
  };
}

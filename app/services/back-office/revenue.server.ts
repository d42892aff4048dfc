import { moneyInByPeriod } from "~/models/back-office/reports.server";
import { periodStarts, REVENUE_PERIODS, type RevenuePeriod, type RevenuePoint } from "~/shared/revenue-periods";

/**
 * Revenue over time for the dashboard's chart: money in (card payments, less refunds and
 * disputes, by the period each payment was charged) for each of the last 30 days, 12 weeks
 * or 12 months, periods without a payment included as zero.
 */
export async function revenueOverTime(period: RevenuePeriod, now = new Date()): Promise<{ period: RevenuePeriod; points: RevenuePoint[] }> {
  const { unit, count } = REVENUE_PERIODS[period];
  const starts = periodStarts(unit, count, now);
  const rows = await moneyInByPeriod(unit, starts[0]!);
  const byStart = new Map(rows.map((r) => [r.period.getTime(), Number(r.kept)]));
  return { period, points: starts.map((start) => ({ start: start.toISOString(), cents: byStart.get(start.getTime()) ?? 0 })) };
}

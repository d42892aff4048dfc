/** The dashboard's revenue chart: its periods (daily, weekly, monthly) and their starts, in UTC. */
export const REVENUE_PERIODS = { daily: { unit: "day", count: 30 }, weekly: { unit: "week", count: 12 }, monthly: { unit: "month", count: 12 } } as const;
export type RevenuePeriod = keyof typeof REVENUE_PERIODS;
export type RevenuePoint = { start: string; cents: number };

/** The start (UTC) of the period holding `at`: the day, the week from Monday, or the month. */
export function periodStart(unit: "day" | "week" | "month", at: Date): Date {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  if (unit === "day") return day;
  if (unit === "week") return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

/** The `count` periods up to the one holding `now`, oldest first. */
export function periodStarts(unit: "day" | "week" | "month", count: number, now: Date): Date[] {
  const last = periodStart(unit, now);
  return Array.from({ length: count }, (_, i) => {
    const back = count - 1 - i;
    if (unit === "day") return new Date(last.getTime() - back * 86_400_000);
    if (unit === "week") return new Date(last.getTime() - back * 7 * 86_400_000);
    return new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() - back, 1));
  });
}

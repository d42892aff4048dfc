import { parseDollars } from "./money";

/** The break and self-exclusion periods a player can choose (shared with the page). */
export const BREAKS = { "24h": { kind: "break", days: 1 }, "7d": { kind: "break", days: 7 }, "30d": { kind: "break", days: 30 } } as const;
export const EXCLUSIONS = {
  "6m": { kind: "self_exclusion", days: 183 },
  "1y": { kind: "self_exclusion", days: 365 },
  "5y": { kind: "self_exclusion", days: 5 * 365 },
} as const;
export type ExclusionChoice = keyof typeof BREAKS | keyof typeof EXCLUSIONS;

export const LIMIT_HINT = "Enter a limit in dollars, like 50 or 25.50";
/** The largest deposit limit one can set, in cents ($1,000,000). */
export const MAX_LIMIT_CENTS = 100_000_000;

/** A typed limit in cents, or undefined when it is not a positive amount of dollars within range. */
export function limitCents(text: string): number | undefined {
  const cents = parseDollars(text);
  return cents !== undefined && cents > 0n && cents <= BigInt(MAX_LIMIT_CENTS) ? Number(cents) : undefined;
}

/** The limits a form gave, by period, in cents. */
export function limitsFromFields(values: { limitDay?: string; limitWeek?: string; limitMonth?: string }) {
  const periods = { day: values.limitDay, week: values.limitWeek, month: values.limitMonth };
  return Object.fromEntries(Object.entries(periods).flatMap(([period, text]) => (text ? [[period, limitCents(text)!]] : []))) as Partial<
    Record<"day" | "week" | "month", number>
  >;
}

/** The reality check's intervals, in minutes of play. */
export const REALITY_CHECK_CHOICES = [15, 30, 60] as const;
export type RealityCheckMinutes = (typeof REALITY_CHECK_CHOICES)[number];

/** "1 h 05 min", "12 min", "45 s". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

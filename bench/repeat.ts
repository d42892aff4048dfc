import { percentile } from "./load";

/**
 * Issue 36: one run of a load phase cannot decide a target (two runs a day apart moved by
 * more than the targets' margins), so each phase runs several times, the app and its
 * reference alternating, and a figure is the median with its spread.
 */
export type Spread = { median: number; min: number; max: number; runs: number };

export function spread(values: number[]): Spread {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return { median: percentile(sorted, 50), min: sorted[0] ?? Number.NaN, max: sorted.at(-1) ?? Number.NaN, runs: values.length };
}

/** "1.45 (1.31–1.52)": the median, then the lowest and highest run; one run prints its value alone. */
export function showSpread(s: Spread, digits = 0, unit = ""): string {
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(digits) : String(n));
  return s.runs > 1 ? `${f(s.median)}${unit} (${f(s.min)}–${f(s.max)})` : `${f(s.median)}${unit}`;
}

/** The spread as a share of the median, to compare runs with: (max − min) / median. */
export const spreadShare = (s: Spread) => (s.max - s.min) / s.median;

/** One line of the report's table. */
export type Row = { figure: string; measured: string; baseline: string; ratio: string; target: string; pass: boolean };

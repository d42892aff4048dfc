import type { CrowdResult } from "./crowd";
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

/**
 * One result standing for a size's runs: each figure the median of the runs' (a step's
 * count, p50 and p99 each), errors and samples summed, the app's RSS the highest peak.
 */
export function medianOfRuns(runs: CrowdResult[]): CrowdResult {
  const [first] = runs;
  if (!first) throw new Error("a crowd size without a run");
  const median = (values: number[]) => spread(values).median;
  const of = (pick: (r: CrowdResult) => number) => median(runs.map(pick));
  const names = [...new Set(runs.flatMap((r) => r.steps.map((s) => s.step)))];
  const stepOf = (r: CrowdResult, name: string) => r.steps.find((s) => s.step === name);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return {
    ...first,
    steps: names.map((name) => {
      const steps = runs.map((r) => stepOf(r, name)).filter((s) => s !== undefined);
      return {
        step: name,
        count: median(steps.map((s) => s.count)),
        p50: median(steps.map((s) => s.p50)),
        p99: median(steps.map((s) => s.p99)),
        errors: sum(steps.map((s) => s.errors)),
      };
    }),
    errors: sum(runs.map((r) => r.errors)),
    errorSamples: runs.flatMap((r) => r.errorSamples).slice(0, 5),
    events: { sampled: sum(runs.map((r) => r.events.sampled)), p99: of((r) => r.events.p99) },
    draws: { drawn: sum(runs.map((r) => r.draws.drawn)), p99: of((r) => r.draws.p99) },
    appCpuPer1000PlayerMinutes: of((r) => r.appCpuPer1000PlayerMinutes),
    postgresCpuPer1000PlayerMinutes: of((r) => r.postgresCpuPer1000PlayerMinutes),
    driverCpuPer1000PlayerMinutes: of((r) => r.driverCpuPer1000PlayerMinutes),
    machineShare: of((r) => r.machineShare),
    appRssMb: Math.max(...runs.map((r) => r.appRssMb)),
    driverLagP99: of((r) => r.driverLagP99),
    arrivalSeconds: of((r) => r.arrivalSeconds),
  };
}

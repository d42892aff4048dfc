import { crowd, type CrowdResult, type CrowdStepChoice } from "./crowd";
import { openShortRaffle, type Player } from "./fixtures";
import type { Child } from "./infra";
import { statementsFrom } from "./statements";
import { medianOfRuns, showSpread, spread, type Row } from "./repeat";

/** The crowd's target at its largest size, on this machine's cores (issue 36). */
const P99_LIMIT_MS = 300;

/**
 * The crowd figure at each size, each run on a fresh app: a row for the largest size, and the
 * table of docs/benchmarks.md (per step p50/p99, event delivery, draws, errors, CPU per 1,000
 * player-minutes for the app and for PostgreSQL, the app's peak RSS). Each size runs `repeats`
 * times, the sizes in turn (250, 500, 1,000, 250, …) so that a drift of the machine falls on
 * every size alike; a cell is the median of its runs (issue 36: single runs at 1,000 players
 * differed threefold), and the target is met only when the medians meet it.
 */
export async function crowdPhase({
  sizes,
  seconds,
  repeats,
  players,
  startApp,
  postgresDir,
  databaseUrl,
  log,
  step: only,
}: {
  sizes: number[];
  seconds: number;
  repeats: number;
  players: Player[];
  startApp: () => Promise<Child>;
  postgresDir: string;
  databaseUrl: string;
  log: (line: string) => void;
  step?: CrowdStepChoice;
}): Promise<{ rows: Row[]; details: string[] }> {
  const runsBySize = new Map<number, CrowdResult[]>(sizes.map((size) => [size, []]));
  for (let run = 1; run <= repeats; run++) {
    for (const size of sizes) {
      const app = await startApp();
      try {
        const statements = await statementsFrom(databaseUrl);
        const stepNote = only && only !== "mixed" ? `, every step ${only}` : "";
        log(`crowd${repeats > 1 ? ` ${run}/${repeats}` : ""}: ${size} players for ${seconds} s${stepNote}`);
        const result = await crowd({
          port: app.port,
          appPid: app.process.pid!,
          postgresDir,
          databaseUrl,
          players: players.slice(0, size),
          seconds,
          openShortRaffle,
          step: only,
        });
        runsBySize.get(size)!.push(result);
        log(`  ${summary(result)}`);
        await statements?.write(repeats > 1 ? `${size}-run${run}` : `${size}`);
      } finally {
        await app.stop();
      }
    }
  }
  const results = sizes.map((size) => medianOfRuns(runsBySize.get(size)!));
  const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(0)}` : "—");
  const step = (r: CrowdResult, name: string) => r.steps.find((s) => s.step === name);
  const cell = (r: CrowdResult, name: string) => {
    const s = step(r, name);
    return s ? `${ms(s.p50)} / ${ms(s.p99)}` : "—";
  };
  const runs = repeats > 1 ? `, each cell the median of ${repeats} runs (errors: their sum)` : "";
  const table = [
    `The crowd (simulated signed-in players over HTTP at a player's pace; p50 / p99 in ms; CPU in seconds per 1,000 player-minutes; machine busy: the app's, PostgreSQL's and the driver's CPU over every core's time${runs}):`,
    "",
    "| Players | Home | /quick | History | Entry | Spin | Live reload (a player a minute) | Events p99 | Draws p99 | Errors | App CPU | PostgreSQL CPU | Driver CPU | Machine busy | App RSS |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...results.map(
      (r) =>
        `| ${r.players} | ${cell(r, "home")} | ${cell(r, "quick page")} | ${cell(r, "history")} | ${cell(r, "entry")} | ${cell(r, "spin")} | ${cell(r, "live reload")} (${reloadsPerPlayerMinute(r)}) | ${ms(r.events.p99)} (${r.events.sampled} sampled) | ${ms(r.draws.p99)} (${r.draws.drawn}) | ${r.errors} | ${r.appCpuPer1000PlayerMinutes.toFixed(1)} | ${r.postgresCpuPer1000PlayerMinutes.toFixed(1)} | ${r.driverCpuPer1000PlayerMinutes.toFixed(1)} | ${(100 * r.machineShare).toFixed(0)}% | ${r.appRssMb.toFixed(0)} MB |`,
    ),
  ].join("\n");
  const details = [table, ...results.filter((r) => r.errors).map((r) => `Crowd of ${r.players}: ${r.errors} errors, e.g. ${r.errorSamples.join("; ")}`)];
  const largest = results.at(-1);
  const rows: Row[] = largest
    ? [
        {
          figure: `Crowd: ${largest.players} players, ${largest.seconds} s${repeats > 1 ? `, ${repeats} runs` : ""}`,
          measured: summary(largest, runsBySize.get(largest.players)!),
          baseline: "—",
          ratio: "—",
          target: `p99 page and entry ≤ ${P99_LIMIT_MS} ms (medians); no errors`,
          pass: largest.errors === 0 && PAGES_AND_ENTRY.every((name) => (step(largest, name)?.p99 ?? Infinity) <= P99_LIMIT_MS),
        },
      ]
    : [];
  return { rows, details };
}

/** The steps the target holds: every page and the entry. */
const PAGES_AND_ENTRY = ["home", "quick page", "history", "entry"];

/** Live reloads counted (after arrival) per player a minute. */
function reloadsPerPlayerMinute(r: CrowdResult): string {
  const count = r.steps.find((s) => s.step === "live reload")?.count ?? 0;
  return (count / r.players / (r.measuredSeconds / 60)).toFixed(1);
}

/** A size's figures in a line (errors: `r`'s, the runs' sum for a median); with its runs, each p99 with its spread. */
function summary(r: CrowdResult, runs: CrowdResult[] = [r]): string {
  const p99 = (name: string) => {
    const s = spread(runs.map((run) => run.steps.find((step) => step.step === name)?.p99 ?? Number.NaN));
    return Number.isFinite(s.median) ? showSpread(s, 0, " ms") : "—";
  };
  return `home p99 ${p99("home")}, entry p99 ${p99("entry")}, live reloads p99 ${p99("live reload")}, ${reloadsPerPlayerMinute(r)} a player a minute; events p99 ${r.events.p99.toFixed(0)} ms, draws p99 ${r.draws.p99.toFixed(0)} ms, ${r.errors} errors, driver's lag p99 ${r.driverLagP99.toFixed(0)} ms; ${Number.isFinite(r.arrivalSeconds) ? `every player in after ${r.arrivalSeconds.toFixed(0)} s` : "not every player got in"}`;
}

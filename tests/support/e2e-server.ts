import { spawn } from "node:child_process";
import { createWriteStream, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ensureDatabase, isAlive, removeEmbeddedPostgres } from "../../server/embedded-postgres";
import { DROP_FILE, E2E_SUITES, e2eDataDir, e2ePort, isE2eSuite } from "./e2e-suites";
import { OWNER_FILE } from "./server-process";
import { claimTestFolder, sweepAbandonedTestData } from "./test-data";
import { databaseUrl, dropDatabase } from "./test-database";

/**
 * Serves the production build for one browser suite (E2E_SUITE: desktop, mobile or
 * no-javascript) on a database of its own: a fresh embedded cluster under
 * .data/e2e/<suite>, or a fresh database on DATABASE_URL's server. The development
 * database is never touched. The server's logs go to .data/e2e/<suite>/server.log (and
 * the database's URL, when not embedded, to .data/e2e/<suite>/database-url) for the scan
 * after the suites (tests/e2e/after-suites/). Another caller (scripts/screens.ts) names
 * its own port and folder with E2E_SERVER_PORT and E2E_DATA_DIR.
 *
 * When the server has stopped, its database goes with it: the cluster is deleted (wherever
 * the root fallback put it) or the database dropped, passed or failed (issue 39). The
 * server.log stays for a look after a failure, until the next run.
 */
const suite = process.env.E2E_SUITE ?? "desktop";
if (!isE2eSuite(suite)) throw new Error(`E2E_SUITE=${suite} is not a browser suite`);
const port = process.env.E2E_SERVER_PORT ?? String(e2ePort(suite));
const dataDir = process.env.E2E_DATA_DIR ? path.resolve(process.env.E2E_DATA_DIR) : e2eDataDir(suite);
await sweepAbandonedTestData();
await claimTestFolder(dataDir);

const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: "production",
  PORT: port,
  DATA_DIR: dataDir,
  LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
  // The browser suites play with demo cards and demo users, on purpose (also on DATABASE_URL).
  DEMO_MODE: "true",
  SEED_DEMO_USERS: "true",
  // No simulated players (ADR 074): a test's pots and winners are its own. `npm run screens`
  // asks for a crowd, so that its pictures show a site that is alive.
  DEMO_CROWD: process.env.E2E_DEMO_CROWD ?? "0",
  // Every browser test signs up from 127.0.0.1.
  SIGNUP_LIMIT_PER_HOUR: "1000",
  // The reality check's "minute" lasts 0.2 s here, so a 15-minute reminder comes after 3 s.
  REALITY_CHECK_MINUTE_SECONDS: "0.2",
};
let removeDatabase = async () => removeEmbeddedPostgres(path.join(dataDir, "postgres"));
if (process.env.DATABASE_URL) {
  const adminUrl = process.env.DATABASE_URL;
  const name = `raffle_e2e_${suite.replace("-", "_")}_${Date.now().toString(36)}`;
  await ensureDatabase(adminUrl, name);
  env.DATABASE_URL = databaseUrl(adminUrl, name);
  env.SEED_ON_START = "true";
  writeFileSync(path.join(dataDir, "database-url"), env.DATABASE_URL, { mode: 0o600 });
  removeDatabase = () => dropDatabase(adminUrl, name);
  writeFileSync(path.join(dataDir, DROP_FILE), JSON.stringify({ adminUrl, name }), { mode: 0o600 });
}
// npm test's first run keeps each suite's database for the card-data scan of its second run
// (scripts/test-e2e.sh, which names itself here and removes them when it ends).
const keeper = Number(process.env.E2E_KEEP_DATABASES) || undefined;

// The server runs in a process group of its own, and hears a stop once, from here: Playwright
// stops a web server by signalling its whole group, so the server would otherwise hear it
// twice (and a wrapping tsx command passes it on again), and a second signal makes it exit
// at once (ADR 041), leaving its embedded PostgreSQL running.
const child = spawn(process.execPath, ["build/server.js"], { env, stdio: ["ignore", "pipe", "inherit"], detached: true });
const log = createWriteStream(path.join(dataDir, "server.log"));
child.stdout!.pipe(log);
// Playwright stops its web servers one after another, each in up to 10 s: a run stopped by
// Ctrl-C would take that long per suite. A web server is stopped only when the run ends, so
// the first suite's server to hear it tells the other suites' of the same runner to stop too.
const runner = Number(process.env.E2E_RUNNER_PID) || undefined;
const WRAPPER_FILE = "wrapper.json";
writeFileSync(path.join(dataDir, WRAPPER_FILE), JSON.stringify({ pid: process.pid, runner }));
function stopOtherSuites() {
  for (const other of E2E_SUITES.filter((name) => name !== suite)) {
    try {
      const wrapper = JSON.parse(readFileSync(path.join(e2eDataDir(other), WRAPPER_FILE), "utf8")) as { pid: number; runner?: number };
      if (runner && wrapper.runner === runner) process.kill(wrapper.pid, "SIGTERM");
    } catch {
      // not started, or already gone
    }
  }
}
let stopping = false;
const stop = (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  child.kill(signal);
  stopOtherSuites();
};
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => stop(signal));
// A test runner that was killed cannot stop its web servers: the server stops when it is gone.
if (runner) setInterval(() => !isAlive(runner) && stop("SIGTERM"), 500).unref();

// Once the server's output is all in its log, and its database is gone.
child.on("close", (code) => {
  log.end(async () => {
    // Playwright says only that the server "was not able to start": its log says why.
    if (code) process.stderr.write(`the ${suite} suite's server exited with code ${code}; its log ends:\n${logTail()}\n`);
    try {
      if (keeper) writeFileSync(path.join(dataDir, OWNER_FILE), `${keeper}\n`);
      else await removeDatabase();
    } catch (error) {
      process.stderr.write(`could not remove the ${suite} suite's database: ${(error as Error).message}\n`);
    }
    process.exit(code ?? 1);
  });
});

function logTail(): string {
  return readFileSync(path.join(dataDir, "server.log"), "utf8").trimEnd().split("\n").slice(-5).join("\n");
}

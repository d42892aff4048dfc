import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ensureDatabase } from "~/infra/embedded-postgres.server";
import { e2eDataDir, e2ePort, isE2eSuite } from "./e2e-suites";
import { databaseUrl } from "./test-database";

/**
 * Serves the production build for one browser suite (E2E_SUITE: desktop, mobile or
 * no-javascript) on a database of its own: a fresh embedded cluster under
 * .data/e2e/<suite>, or a fresh database on DATABASE_URL's server. The development
 * database is never touched. The server's logs go to .data/e2e/<suite>/server.log (and
 * the database's URL, when not embedded, to .data/e2e/<suite>/database-url) for the scan
 * after the suites (tests/e2e/after-suites/). Another caller (scripts/screens.ts) names
 * its own port and folder with E2E_SERVER_PORT and E2E_DATA_DIR.
 */
const suite = process.env.E2E_SUITE ?? "desktop";
if (!isE2eSuite(suite)) throw new Error(`E2E_SUITE=${suite} is not a browser suite`);
const port = process.env.E2E_SERVER_PORT ?? String(e2ePort(suite));
const dataDir = process.env.E2E_DATA_DIR ? path.resolve(process.env.E2E_DATA_DIR) : e2eDataDir(suite);
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });

const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: "production",
  PORT: port,
  DATA_DIR: dataDir,
  LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
  // The browser suites play with demo cards and demo users, on purpose (also on DATABASE_URL).
  DEMO_MODE: "true",
  SEED_DEMO_USERS: "true",
  // Every browser test signs up from 127.0.0.1.
  SIGNUP_LIMIT_PER_HOUR: "1000",
  // The reality check's "minute" lasts 0.2 s here, so a 15-minute reminder comes after 3 s.
  REALITY_CHECK_MINUTE_SECONDS: "0.2",
};
if (process.env.DATABASE_URL) {
  const name = `raffle_e2e_${suite.replace("-", "_")}_${Date.now().toString(36)}`;
  await ensureDatabase(process.env.DATABASE_URL, name);
  env.DATABASE_URL = databaseUrl(process.env.DATABASE_URL, name);
  env.SEED_ON_START = "true";
  writeFileSync(path.join(dataDir, "database-url"), env.DATABASE_URL, { mode: 0o600 });
}

// The server runs in a process group of its own, and hears a stop once, from here: Playwright
// stops a web server by signalling its whole group, and tsx passes the signal on to this
// script too, so the server would otherwise hear it twice, and a second signal makes it exit
// at once (ADR 041), leaving its embedded PostgreSQL running.
const child = spawn(process.execPath, ["build/server.js"], { env, stdio: ["ignore", "pipe", "inherit"], detached: true });
const log = createWriteStream(path.join(dataDir, "server.log"));
child.stdout!.pipe(log);
let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    child.kill(signal);
  });
}
// Once the server's output is all in its log.
child.on("close", (code) => log.end(() => process.exit(code ?? 1)));

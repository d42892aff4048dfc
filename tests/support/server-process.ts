import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomInt, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { removeEmbeddedPostgres } from "../../server/embedded-postgres";

/**
 * The production server as a child process: on an embedded database of its own under
 * `dataDir`, or on the server that `extraEnv.DATABASE_URL` names. Used by the process
 * suites (Playwright) and the crash-recovery test (Vitest), so it needs neither runner.
 */
export type ServerProcess = { child: ChildProcess; port: number; output: () => string; exited: Promise<number | null> };

const dataDirs: string[] = [];

/** In a test run's folder: the pid of the process that owns it (tests/support/test-data.ts sweeps it once that is gone). */
export const OWNER_FILE = "owner.pid";

/** A folder of its own under .data, removed by removeDataDirs (or, if this process is killed, by the next run's sweep). */
export function newDataDir(): string {
  const dir = path.resolve(`.data/e2e-process-${randomBytes(4).toString("hex")}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, OWNER_FILE), `${process.pid}\n`);
  dataDirs.push(dir);
  return dir;
}

/** Deletes a DATA_DIR and its embedded cluster, which may live elsewhere (ADR 003). Its server must be stopped. */
export function removeDataDir(dir: string): void {
  removeEmbeddedPostgres(path.join(dir, "postgres"));
  rmSync(dir, { recursive: true, force: true });
}

export function removeDataDirs(): void {
  for (const dir of dataDirs.splice(0)) removeDataDir(dir);
}

/**
 * Ports below the system's range for outgoing connections (32768 by default): a server binds
 * its port seconds after it was found free, and a port in that range may by then be an
 * outgoing connection's, which no server can listen on (it happened once in CI).
 */
const ephemeralFrom = (() => {
  try {
    return Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
})();
// Three below the range's start: leave-nothing's three suites take a port and the next two.
const QUIET_PORTS = { from: 20000, to: Math.max(Math.min(ephemeralFrom, 32768) - 3, 20001) };

/** A port nothing listens on: a random one below the outgoing range, or the first free one in [from, to]. */
export async function freePort(range?: { from: number; to: number }): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number | undefined>((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(undefined));
      server.listen(port, "127.0.0.1", () => {
        const address = server.address();
        server.close(() => resolve(typeof address === "object" && address ? address.port : undefined));
      });
    });
  if (!range) {
    for (let attempt = 0; attempt < 100; attempt++) {
      const port = await tryPort(randomInt(QUIET_PORTS.from, QUIET_PORTS.to + 1));
      if (port !== undefined) return port;
    }
    throw new Error(`no free port in ${QUIET_PORTS.from}-${QUIET_PORTS.to}`);
  }
  for (let port = range.from; port <= range.to; port++) {
    if ((await tryPort(port)) !== undefined) return port;
  }
  throw new Error(`no free port in ${range.from}-${range.to}`);
}

/** Where the server runs from (a checkout with build/; this one by default) and as whom (this process's user by default). */
type StartOptions = { cwd?: string; uid?: number; gid?: number };

export async function startServer(dataDir: string, extraEnv: Record<string, string> = {}, { cwd, uid, gid }: StartOptions = {}): Promise<ServerProcess> {
  const port = Number(extraEnv.PORT ?? (await freePort()));
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    // No simulated players (ADR 074) unless the test asks for them in extraEnv.
    DEMO_CROWD: "0",
  };
  delete env.DATABASE_URL;
  Object.assign(env, extraEnv);
  const child = spawn(process.execPath, ["build/server.js"], { cwd, uid, gid, env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, port, output: () => output, exited };
}

export async function waitUntilReady(server: ServerProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) throw new Error(`server exited: ${server.output()}`);
    const status = await fetch(`http://localhost:${server.port}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`server not ready within ${timeoutMs} ms: ${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Kills the server the hard way (a crash): no shutdown handler runs. */
export async function killServer(server: ServerProcess): Promise<void> {
  server.child.kill("SIGKILL");
  await server.exited;
}

export async function stopServer(server: ServerProcess): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  server.child.kill("SIGTERM");
  const code = await server.exited;
  return { code, ms: Date.now() - started };
}

/**
 * Signs a new adult player up on a server process, as its sign-up form would, and gives them a
 * username (a player chooses one before playing) unless told not to; returns their cookies.
 */
export async function signUpOn(base: string, email: string, { username = true } = {}): Promise<string> {
  const response = await fetch(`${base}/api/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      intent: "signup",
      email,
      password: "correct horse battery staple",
      dateOfBirth: "1990-01-01",
      country: "IE",
      acceptTerms: "on",
    }),
  });
  if (response.status !== 302) throw new Error(`sign-up of ${email} answered ${response.status}`);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!username) return cookie;
  const named = await fetch(`${base}/api/auth/create-username`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: base, "Content-Type": "application/json" },
    body: JSON.stringify({ username: `p_${randomUUID().replace(/-/g, "").slice(0, 12)}` }),
  });
  if (named.status !== 200) throw new Error(`the username of ${email} answered ${named.status}`);
  return cookie;
}

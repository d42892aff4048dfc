import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { MIN_AGE_MS, stopLeftoverPostgres, sweepOrphanedClusters } from "~/infra/cluster-cleanup.server";
import { isAlive, removeEmbeddedPostgres } from "../../server/embedded-postgres";
import { OWNER_FILE, removeDataDir } from "./server-process";

/**
 * The folders a test run keeps its databases in (issue 39): each is removed, cluster and
 * all, when its run ends; one whose run was killed keeps a marker naming a process that no
 * longer exists, and the next run sweeps it.
 */
/** Where the test runs of this checkout keep their folders (Vitest's; each browser suite's is under e2e/). */
export const TEST_DATA_ROOT = path.resolve(".data");

/** Makes `dir` (emptied of a former run's cluster) this process's: the marker names its pid. */
export async function claimTestFolder(dir: string): Promise<void> {
  await stopLeftoverPostgres(path.join(dir, "postgres"));
  removeDataDir(dir);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, OWNER_FILE), `${process.pid}\n`);
}

/** The folders test runs make: Vitest's, the browser suites', the process tests'. */
function testFolders(): string[] {
  const under = (folder: string) => (existsSync(folder) ? readdirSync(folder).map((name) => path.join(folder, name)) : []);
  return [
    ...under(path.join(TEST_DATA_ROOT, "test-runs")),
    ...under(path.join(TEST_DATA_ROOT, "e2e")),
    ...under(TEST_DATA_ROOT).filter((dir) => path.basename(dir).startsWith("e2e-process-")),
  ];
}

function abandoned(dir: string): boolean {
  const marker = path.join(dir, OWNER_FILE);
  if (!existsSync(marker)) return false;
  return Date.now() - statSync(marker).mtimeMs >= MIN_AGE_MS && !isAlive(Number(readFileSync(marker, "utf8")));
}

/**
 * At the start of a run: what killed runs left (their folders, clusters and servers still
 * running), the cluster Vitest used to keep between runs, and clusters under
 * /var/lib/raffle-rush/ that no folder names any more. Returns the folders removed.
 */
export async function sweepAbandonedTestData(): Promise<string[]> {
  const removed: string[] = [];
  const legacy = path.join(TEST_DATA_ROOT, "test-postgres");
  for (const dir of testFolders().filter(abandoned)) {
    try {
      await stopLeftoverPostgres(path.join(dir, "postgres"));
      removeDataDir(dir);
      removed.push(dir);
    } catch {
      // Another run sweeps at the same moment: it has this one.
    }
  }
  if (existsSync(legacy)) {
    await stopLeftoverPostgres(legacy);
    removeEmbeddedPostgres(legacy);
    removed.push(legacy);
  }
  return [...removed, ...sweepOrphanedClusters()];
}

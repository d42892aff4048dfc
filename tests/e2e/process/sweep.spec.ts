import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { sweepOrphanedClusters } from "~/infra/cluster-cleanup.server";
import { OWNER_FILE as CLUSTER_OWNER_FILE } from "../../../server/postgres-user";
import { killServer, newDataDir, OWNER_FILE, removeDataDir, removeDataDirs, startServer, stopServer, waitUntilReady } from "../../support/server-process";
import { sweepAbandonedTestData } from "../../support/test-data";

/**
 * What a killed test run left is swept by the next one (issue 39): its folder (its marker
 * names a process that is gone, and is older than a minute), the PostgreSQL server still
 * running on it, and clusters under /var/lib/raffle-rush/ whose clone was deleted.
 */

test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);
test.afterAll(() => removeDataDirs());

const isRoot = process.getuid?.() === 0;
const twoMinutesAgo = () => new Date(Date.now() - 120_000);
const clusterOf = (output: string) => /"cluster":"([^"]+)"/.exec(output)![1]!;

function postmasterRunning(cluster: string): boolean {
  try {
    process.kill(Number(readFileSync(path.join(cluster, "postmaster.pid"), "utf8").split("\n")[0]), 0);
    return true;
  } catch {
    return false;
  }
}

test("a killed run's folder, and the PostgreSQL still running on it, are swept by the next run", async () => {
  const dataDir = newDataDir();
  const server = await startServer(dataDir);
  await waitUntilReady(server);
  const cluster = clusterOf(server.output());
  // The run is killed: no shutdown runs, and the embedded PostgreSQL (a group of its own) keeps running.
  await killServer(server);
  expect(postmasterRunning(cluster)).toBe(true);
  // As if the killed server had made the folder: its marker names it, from two minutes ago.
  const marker = path.join(dataDir, OWNER_FILE);
  writeFileSync(marker, `${server.child.pid}\n`);
  utimesSync(marker, twoMinutesAgo(), twoMinutesAgo());
  // This process's folder, as old: its owner lives.
  const live = newDataDir();
  utimesSync(path.join(live, OWNER_FILE), twoMinutesAgo(), twoMinutesAgo());

  const removed = await sweepAbandonedTestData();
  expect(removed).toContain(dataDir);
  expect(existsSync(dataDir)).toBe(false);
  expect(existsSync(cluster)).toBe(false);
  expect(postmasterRunning(cluster)).toBe(false);
  // A folder whose owner lives is left alone, however old.
  expect(existsSync(live)).toBe(true);
});

test("a cluster under /var/lib/raffle-rush/ whose clone was deleted is swept; one whose clone remains is kept", async () => {
  test.skip(!isRoot, "not root: only root keeps clusters under /var/lib/raffle-rush/ (ADR 003)");
  const clones = [0, 1].map(() => mkdtempSync(path.join(os.tmpdir(), "raffle-orphan-")));
  try {
    const clusters: string[] = [];
    for (const clone of clones) {
      const server = await startServer(path.join(clone, ".data"));
      await waitUntilReady(server);
      expect((await stopServer(server)).code).toBe(0);
      const cluster = clusterOf(server.output());
      expect(cluster).toMatch(/^\/var\/lib\/raffle-rush\/clusters\//);
      const owner = path.join(path.dirname(cluster), CLUSTER_OWNER_FILE);
      utimesSync(owner, twoMinutesAgo(), twoMinutesAgo());
      clusters.push(cluster);
    }
    rmSync(clones[0]!, { recursive: true, force: true });

    const removed = sweepOrphanedClusters();
    expect(removed).toContain(path.dirname(clusters[0]!));
    expect(existsSync(clusters[0]!)).toBe(false);
    expect(removed).not.toContain(path.dirname(clusters[1]!));
    expect(existsSync(path.join(clusters[1]!, "PG_VERSION"))).toBe(true);
  } finally {
    for (const clone of clones) {
      removeDataDir(path.join(clone, ".data"));
      rmSync(clone, { recursive: true, force: true });
    }
  }
});

import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startServer, stopServer, waitUntilReady } from "../../support/server-process";

/**
 * `npm run db:drop` deletes a clone's data folder and its cluster, wherever the root
 * fallback put it (issue 39): after a confirmation, never while its server runs.
 */

test.setTimeout(120_000);

const isRoot = process.getuid?.() === 0;
const dbDrop = (dataDir: string, ...args: string[]) => {
  const result = spawnSync("npm", ["run", "--silent", "db:drop", "--", ...args], {
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
};

test("db:drop deletes a clone's data and its cluster, after a confirmation, once its server has stopped", async () => {
  // A mode-700 folder: as root, PostgreSQL's user cannot enter it, so the cluster lives under /var/lib/raffle-rush/.
  const folder = mkdtempSync(path.join(os.tmpdir(), "raffle-drop-"));
  const dataDir = path.join(folder, "data");
  try {
    const server = await startServer(dataDir);
    await waitUntilReady(server);
    const cluster = /"cluster":"([^"]+)"/.exec(server.output())![1]!;
    const clusterHome = isRoot ? path.dirname(cluster) : undefined;
    if (isRoot) expect(cluster).toMatch(/^\/var\/lib\/raffle-rush\/clusters\/[^/]+\/data$/);
    // The first lines say where the data lives.
    expect(server.output()).toContain(`data in ${dataDir}`);

    expect(dbDrop(dataDir, "--yes")).toEqual({
      code: 1,
      output: expect.stringMatching(/^db:drop: nothing deleted: its PostgreSQL is running \(pid \d+\): stop npm start first\n$/),
    });
    expect((await stopServer(server)).code).toBe(0);

    const what = `delete ${dataDir}${clusterHome ? ` and ${clusterHome}` : ""}`;
    expect(dbDrop(dataDir)).toEqual({
      code: 1,
      output: `db:drop would ${what} (the local database, demo secrets and mail): run \`npm run db:drop -- --yes\` to confirm\n`,
    });
    expect(existsSync(cluster)).toBe(true);

    expect(dbDrop(dataDir, "--yes")).toEqual({ code: 0, output: `deleted ${dataDir}${clusterHome ? ` and ${clusterHome}` : ""}\n` });
    expect(existsSync(dataDir)).toBe(false);
    expect(existsSync(cluster)).toBe(false);
    if (clusterHome) expect(existsSync(clusterHome)).toBe(false);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

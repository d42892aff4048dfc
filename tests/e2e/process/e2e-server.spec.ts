import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort, newDataDir, removeDataDirs } from "../../support/server-process";
import { scaled } from "../../support/timeouts";

test.afterAll(() => removeDataDirs());

/**
 * A browser suite's server (tests/support/e2e-server.ts) is stopped as Playwright stops a web
 * server: SIGTERM to its whole process group (node with tsx's loader, as playwright.config.ts runs it). It must shut down once,
 * its embedded PostgreSQL with it, and not take the stop for a second signal (which exits at
 * once and left the database running after `npm test`).
 */
test("a browser suite's server stops with its database when its process group is told to stop", async () => {
  const dataDir = newDataDir();
  const port = await freePort();
  const wrapper = spawn(process.execPath, ["--import", "tsx", "tests/support/e2e-server.ts"], {
    detached: true,
    stdio: "ignore",
    env: { ...process.env, E2E_SUITE: "desktop", E2E_SERVER_PORT: String(port), E2E_DATA_DIR: dataDir },
  });
  const exited = new Promise<number | null>((resolve) => wrapper.once("exit", resolve));
  try {
    await expect
      .poll(
        () =>
          fetch(`http://localhost:${port}/readyz`).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: scaled(90_000), intervals: [250] },
      )
      .toBe(200);
  } finally {
    process.kill(-wrapper.pid!, "SIGTERM");
  }
  expect(await exited).toBe(0);
  const log = readFileSync(path.join(dataDir, "server.log"), "utf8");
  expect(log).not.toContain("second signal");
  // Logged once the database is closed (the embedded cluster stopped).
  expect(log).toContain('"msg":"stopped"');
});

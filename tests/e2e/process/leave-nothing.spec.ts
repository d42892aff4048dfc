import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_SUITES } from "../../support/e2e-suites";
import { freePort } from "../../support/server-process";

/**
 * A test run leaves nothing behind (issue 39): Playwright runs inside this test, on three
 * free ports and with its suites' folders in a fresh mode-700 folder (so that, as root, the
 * clusters go to /var/lib/raffle-rush/clusters/, the root fallback of ADR 003). After a
 * run that passes and after one that fails, no cluster of it remains there or in its
 * folders; SIGINT to a running suite's process group leaves no process of it after 10 s.
 */

test.describe.configure({ mode: "serial" });
test.setTimeout(300_000);

const isRoot = process.getuid?.() === 0;
let root: string;
test.beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "raffle-run-"));
});
test.afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Three free ports in a row, for the three suites' servers. */
async function freePorts(): Promise<number> {
  for (;;) {
    const base = await freePort();
    if ((await freePort({ from: base + 1, to: base + 1 })) && (await freePort({ from: base + 2, to: base + 2 }))) return base;
  }
}

/** `playwright test …args` in a process group of its own, its suites' folders under `root`. */
async function nestedRun(args: string[]) {
  const child = spawn(
    path.resolve("node_modules/.bin/playwright"),
    ["test", "--project=desktop", "--no-deps", "--workers=1", "--reporter=line", `--output=${root}/results`, ...args],
    {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      // Not npm test's E2E_AFTER_SUITES (no suite server) nor E2E_KEEP_DATABASES (kept for a scan).
      env: { ...process.env, E2E_AFTER_SUITES: "", E2E_KEEP_DATABASES: "", E2E_PORT: String(await freePorts()), E2E_DATA_ROOT: path.join(root, "suites") },
    },
  );
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/**
 * The processes of this run: those whose environment names its folder (runner, workers,
 * servers) and the PostgreSQL servers on its clusters (which rewrite their environment's
 * memory for their titles, so they are known by their data folder).
 */
function processesOfRun(clusters: string[] = []): string[] {
  const marker = `E2E_DATA_ROOT=${path.join(root, "suites")}\0`;
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      const ours = clusters.some((cluster) => command.includes(`-D ${cluster} `)) || readFileSync(`/proc/${pid}/environ`, "utf8").includes(marker);
      if (ours) found.push(`${pid} ${command}`);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** The clusters the suites' servers said they used (from their logs), and what is left of them. */
function leftovers(): { clusters: string[]; remaining: string[] } {
  const clusters = E2E_SUITES.map((suite) => {
    const log = readFileSync(path.join(root, "suites", suite, "server.log"), "utf8");
    return /"cluster":"([^"]+)"/.exec(log)![1]!;
  });
  const folders = E2E_SUITES.map((suite) => path.join(root, "suites", suite, "postgres"));
  return { clusters, remaining: [...clusters, ...folders].filter((folder) => existsSync(folder)) };
}

function expectClustersGone() {
  const { clusters, remaining } = leftovers();
  // As root, in a folder PostgreSQL's user cannot enter: the fallback was used.
  if (isRoot) for (const cluster of clusters) expect(cluster).toMatch(/^\/var\/lib\/raffle-rush\/clusters\//);
  expect(remaining).toEqual([]);
}

test("after a run whose tests pass, none of its clusters remains", async () => {
  const run = await nestedRun(["tests/e2e/shell.spec.ts", "-g", "unknown path"]);
  expect(await run.exited, run.output()).toBe(0);
  expect(run.output()).toContain("1 passed");
  // Playwright's wait for a web server ends with its shell; the server's cleanup, a moment later.
  await expect.poll(() => processesOfRun(leftovers().clusters), { timeout: 10_000, intervals: [250] }).toEqual([]);
  expectClustersGone();
});

test("after a run whose test fails, none of its clusters remains", async () => {
  // A millisecond is too short for any test: it fails.
  const run = await nestedRun(["tests/e2e/shell.spec.ts", "-g", "unknown path", "--timeout=1"]);
  expect(await run.exited, run.output()).toBe(1);
  expect(run.output()).toContain("1 failed");
  // Playwright's wait for a web server ends with its shell; the server's cleanup, a moment later.
  await expect.poll(() => processesOfRun(leftovers().clusters), { timeout: 10_000, intervals: [250] }).toEqual([]);
  expectClustersGone();
});

test("SIGINT to a running suite's process group leaves no server or PostgreSQL of it after 10 s", async () => {
  const run = await nestedRun(["tests/e2e/"]);
  // Running: every suite's server answers, and the runner has begun the tests.
  await expect.poll(() => run.output(), { timeout: 240_000, intervals: [250] }).toMatch(/\[desktop\] ›/);
  const { clusters } = leftovers();
  expect(processesOfRun(clusters).filter((line) => line.includes(" -D ")).length).toBe(3);
  process.kill(-run.child.pid!, "SIGINT");
  await expect.poll(() => processesOfRun(clusters), { timeout: 10_000, intervals: [250] }).toEqual([]);
  expectClustersGone();
});

import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumExecutable } from "./tests/support/chromium";
import { E2E_SUITES, e2ePort, type E2eSuite } from "./tests/support/e2e-suites";
import { TIMEOUTS } from "./tests/support/timeouts";

const baseURL = (suite: E2eSuite) => `http://localhost:${e2ePort(suite)}`;
const launchOptions = { executablePath: chromiumExecutable(), args: CHROMIUM_ARGS };

/**
 * End-to-end tests against the production build (`npm run build` first). Each browser
 * suite has its own server (tests/support/e2e-server.ts) on its own fresh database, on
 * E2E_PORT (desktop), E2E_PORT + 1 (mobile) and E2E_PORT + 2 (no-javascript).
 *
 * `npm run test:e2e` (scripts/test-e2e.sh) runs it twice: the browser suites, then, with
 * E2E_AFTER_SUITES=1 and whatever the suites' result, the process tests and the card-data
 * scan, so that one browser test's failure does not hide theirs (ADR 056).
 */
const afterSuites = process.env.E2E_AFTER_SUITES === "1";
export default defineConfig({
  testDir: "tests/e2e",
  // Each run empties its own folders: the second must not delete the first's traces.
  outputDir: afterSuites ? "tests/artifacts/results-after-suites" : "tests/artifacts/results",
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  workers: process.env.CI ? 2 : undefined,
  reporter: [["list"], ["html", { outputFolder: afterSuites ? "tests/artifacts/report-after-suites" : "tests/artifacts/report", open: "never" }]],
  // Scaled by TEST_TIMEOUT_FACTOR (tests/support/timeouts.ts), as is every wait in the specs.
  timeout: TIMEOUTS.browserTest,
  expect: { timeout: TIMEOUTS.browserExpect },
  use: {
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "desktop",
      use: { ...devices["Desktop Chrome"], launchOptions, baseURL: baseURL("desktop") },
      testIgnore: /\/(process|after-suites)\//,
    },
    {
      name: "mobile",
      // Pixel 7's viewport, touch and user agent, in the installed Chromium.
      use: { ...devices["Pixel 7"], launchOptions, baseURL: baseURL("mobile") },
      testIgnore: /\/(process|admin|after-suites)\//,
    },
    {
      name: "no-javascript",
      use: { ...devices["Desktop Chrome"], javaScriptEnabled: false, launchOptions, baseURL: baseURL("no-javascript") },
      // tests/e2e/with-javascript/ needs JavaScript; tests/e2e/process/ needs no browser;
      // tests/e2e/admin/ runs once (in desktop) and drives both modes itself.
      testIgnore: /\/(process|with-javascript|admin|after-suites)\//,
    },
    {
      // Server processes of their own (each with an embedded database), started and
      // stopped: they run once the browser suites have finished, so that their start-ups
      // do not take the CPU from the browser tests' server while those wait on it.
      name: "process",
      use: { ...devices["Desktop Chrome"], launchOptions },
      testMatch: /\/process\/.*\.spec\.ts$/,
      dependencies: ["desktop", "mobile", "no-javascript"],
    },
    {
      // Runs once every browser suite has finished: scans the server they used.
      name: "after-suites",
      testMatch: /\/after-suites\/.*\.spec\.ts$/,
      dependencies: ["desktop", "mobile", "no-javascript"],
    },
  ],
  // The second run (E2E_AFTER_SUITES=1, with --no-deps) starts no suite server: a new one
  // would empty the database the card-data scan reads.
  webServer: (afterSuites ? [] : E2E_SUITES).map((suite) => ({
    // Node with tsx's loader, not the tsx command: under load, its relay of a stop signal
    // can end in SIGKILL before the server's database is deleted (tests/support/e2e-server.ts).
    command: "node --import tsx tests/support/e2e-server.ts",
    url: `${baseURL(suite)}/readyz`,
    // The runner's pid: a server whose runner was killed stops by itself (tests/support/e2e-server.ts).
    env: { E2E_SUITE: suite, E2E_RUNNER_PID: String(process.pid) },
    reuseExistingServer: false,
    // Three servers and their databases start at once on two cores.
    timeout: TIMEOUTS.serverStart,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 10_000 },
  })),
});

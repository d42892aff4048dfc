import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumExecutable } from "./tests/support/chromium";
import { E2E_SUITES, e2ePort, type E2eSuite } from "./tests/support/e2e-suites";

const baseURL = (suite: E2eSuite) => `http://localhost:${e2ePort(suite)}`;
const launchOptions = { executablePath: chromiumExecutable(), args: CHROMIUM_ARGS };

/**
 * End-to-end tests against the production build (`npm run build` first). Each browser
 * suite has its own server (tests/support/e2e-server.ts) on its own fresh database, on
 * E2E_PORT (desktop), E2E_PORT + 1 (mobile) and E2E_PORT + 2 (no-javascript).
 */
export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "tests/artifacts/results",
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  workers: process.env.CI ? 2 : undefined,
  reporter: [["list"], ["html", { outputFolder: "tests/artifacts/report", open: "never" }]],
  timeout: 30_000,
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
  webServer: E2E_SUITES.map((suite) => ({
    // Node with tsx's loader, not the tsx command: under load, its relay of a stop signal
    // can end in SIGKILL before the server's database is deleted (tests/support/e2e-server.ts).
    command: "node --import tsx tests/support/e2e-server.ts",
    url: `${baseURL(suite)}/readyz`,
    // The runner's pid: a server whose runner was killed stops by itself (tests/support/e2e-server.ts).
    env: { E2E_SUITE: suite, E2E_RUNNER_PID: String(process.pid) },
    reuseExistingServer: false,
    // Three servers and their databases start at once on two cores.
    timeout: 180_000,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 10_000 },
  })),
});

import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumExecutable } from "./tests/support/chromium";

const PORT = Number(process.env.E2E_PORT ?? 3210);
const launchOptions = { executablePath: chromiumExecutable(), args: CHROMIUM_ARGS };

/**
 * End-to-end tests against the production build (`npm run build` first), served by
 * tests/support/e2e-server.ts on its own fresh database.
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
    baseURL: `http://localhost:${PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "desktop",
      use: { ...devices["Desktop Chrome"], launchOptions },
      testIgnore: /\/(process|after-suites)\//,
    },
    {
      name: "mobile",
      // Pixel 7's viewport, touch and user agent, in the installed Chromium.
      use: { ...devices["Pixel 7"], launchOptions },
      testIgnore: /\/(process|admin|after-suites)\//,
    },
    {
      name: "no-javascript",
      use: { ...devices["Desktop Chrome"], javaScriptEnabled: false, launchOptions },
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
  webServer: {
    command: "tsx tests/support/e2e-server.ts",
    url: `http://localhost:${PORT}/readyz`,
    env: { E2E_PORT: String(PORT) },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
  },
});

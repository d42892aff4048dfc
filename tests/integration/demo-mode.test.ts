import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { call } from "../support/app";
import { testDatabaseUrl } from "../support/database-setup";
import { startServer, stopServer, waitUntilReady, type ServerProcess } from "../support/server-process";
import { REAL_MODE_ENV } from "../support/stripe-mode";

/**
 * Demo mode on purpose only (PRODUCT.md): without Stripe keys it is on with the embedded
 * database or with DEMO_MODE=true; a server with DATABASE_URL, no Stripe keys and no
 * DEMO_MODE refuses to start with one line; every page of a demo says so.
 */
const dataDir = path.resolve(process.env.DATA_DIR ?? ".data/test");
/** The variables this file decides, blanked (empty counts as unset) whatever the host set. */
const UNSET = { DEMO_MODE: "", STRIPE_SECRET_KEY: "", STRIPE_PUBLISHABLE_KEY: "", STRIPE_WEBHOOK_SECRET: "" };
const started: ServerProcess[] = [];

afterAll(async () => {
  for (const server of started) if (server.child.exitCode === null) await stopServer(server);
});

async function serve(extraEnv: Record<string, string>) {
  const server = await startServer(dataDir, { ...UNSET, SCHEDULER_ENABLED: "false", LOG_LEVEL: "warn", ...extraEnv });
  started.push(server);
  return server;
}

describe("start-up", () => {
  it("refuses DATABASE_URL without Stripe keys or DEMO_MODE: exit 78 and one line naming them", async () => {
    const server = await serve({ DATABASE_URL: testDatabaseUrl });
    expect(await server.exited).toBe(78);
    expect(server.output()).toBe(
      "Invalid configuration: STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are unset while DATABASE_URL is set: set them for real payments, or DEMO_MODE=true for a demo\n",
    );
  });

  it("runs a demo on DATABASE_URL with DEMO_MODE=true, with the banner", async () => {
    const server = await serve({ DATABASE_URL: testDatabaseUrl, DEMO_MODE: "true" });
    await waitUntilReady(server);
    const page = await fetch(`http://127.0.0.1:${server.port}/terms`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-testid="demo-banner"');
    await stopServer(server);
  }, 90_000);

  it("runs for real with Stripe keys, DEMO_MODE or not, without the banner", async () => {
    const server = await serve({
      DATABASE_URL: testDatabaseUrl,
      DEMO_MODE: "true",
      ...REAL_MODE_ENV,
    });
    await waitUntilReady(server);
    const page = await fetch(`http://127.0.0.1:${server.port}/terms`);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain("demo-banner");
    await stopServer(server);
  }, 90_000);
});

describe("the demo banner", () => {
  it.each(["/", "/terms", "/privacy", "/rules", "/api/login", "/no-such-page"])("is on %s", async (pathname) => {
    const response = await call(pathname);
    expect(await response.text()).toContain("Demo site: payments are simulated with test cards, and no real money is charged or paid out.");
  });
});

import { expect, test } from "@playwright/test";
import { newDataDir, removeDataDirs, startServer, stopServer, waitUntilReady, type ServerProcess, signUpOn } from "../../support/server-process";
import { scaled } from "../../support/timeouts";

/**
 * GET /metrics (ADR 026): off without METRICS_TOKEN, 401 without the right bearer, and
 * with it the whole cluster's metrics: a worker's HTTP and entry counters and the
 * primary's draws and database gauges, summed, whichever worker the scrape reaches.
 */
const TOKEN = "metrics-token-for-the-process-test";

test.describe.configure({ mode: "serial" });
test.afterAll(() => removeDataDirs());

async function withServer(env: Record<string, string>, run: (base: string) => Promise<void>) {
  const server: ServerProcess = await startServer(newDataDir(), env);
  try {
    await waitUntilReady(server);
    await run(`http://localhost:${server.port}`);
  } finally {
    await stopServer(server);
  }
}

async function scrape(base: string): Promise<string> {
  const response = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return response.text();
}

/** The sum of a metric's samples whose labels include every one of `labels`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split("\n")) {
    const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const own = match[2] ?? "";
    if (Object.entries(labels).every(([key, value]) => own.includes(`${key}="${value}"`))) total += Number(match[3]);
  }
  return total;
}

test("without METRICS_TOKEN there is no /metrics", async () => {
  await withServer({ SCHEDULER_ENABLED: "false" }, async (base) => {
    const response = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(404);
  });
});

test("with two workers, /metrics needs the token and shows the cluster's counters moving", async () => {
  test.setTimeout(scaled(120_000));
  await withServer({ METRICS_TOKEN: TOKEN, WEB_CONCURRENCY: "2" }, async (base) => {
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { Authorization: TOKEN } })).status).toBe(401);

    const before = await scrape(base);
    for (const name of [
      "raffle_http_requests_total",
      "raffle_http_request_duration_seconds_bucket",
      "raffle_entries_total",
      "raffle_draws_total",
      "raffle_draw_lag_seconds_bucket",
      "raffle_payments",
      "raffle_withdrawals",
      "raffle_payout_legs",
      "raffle_event_streams_open",
      "raffle_db_pool_connections",
      "raffle_ledger_ok",
      "raffle_ledger_sum_coins",
      "raffle_nodejs_eventloop_lag_seconds",
    ]) {
      expect(before, name).toMatch(new RegExp(`^# TYPE ${name.replace(/_bucket$/, "")} `, "m"));
    }
    expect(sample(before, "raffle_ledger_ok")).toBe(1);
    expect(sample(before, "raffle_db_pool_connections", { state: "max" })).toBeGreaterThanOrEqual(10);

    // An entry (refused: no such raffle) is counted, under its route's pattern, not its URL.
    const cookie = await signUpOn(base, "metrics@example.com");
    const raffleId = "00000000-0000-4000-8000-000000000000";
    const entry = await fetch(`${base}/api/quick-raffles/${raffleId}/enter`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: base, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(entry.status).toBe(404);
    const afterEntry = await scrape(base);
    expect(sample(afterEntry, "raffle_entries_total", { result: "refused", reason: "raffle_not_found" })).toBe(
      sample(before, "raffle_entries_total", { result: "refused", reason: "raffle_not_found" }) + 1,
    );
    expect(sample(afterEntry, "raffle_http_requests_total", { route: "/api/quick-raffles/:id/enter", status: "404" })).toBe(1);
    expect(afterEntry).not.toContain(raffleId);

    // The primary draws the quick rounds (30 s each): its draws reach a worker's scrape.
    await expect.poll(async () => sample(await scrape(base), "raffle_draws_total"), { timeout: scaled(60_000), intervals: [1_000] }).toBeGreaterThan(0);
    const afterDraw = await scrape(base);
    expect(sample(afterDraw, "raffle_draw_lag_seconds_count")).toBeGreaterThan(0);
  });
});

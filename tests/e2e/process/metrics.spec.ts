import { expect, test } from "@playwright/test";
import pg from "pg";
import { runningDatabaseUrl } from "../../support/database-dump";
import { newDataDir, removeDataDirs, startServer, stopServer, waitUntilReady, type ServerProcess, signUpOn } from "../../support/server-process";
import { scaled } from "../../support/timeouts";

/**
 * GET /metrics (ADR 097): off without METRICS_TOKEN, 401 without the right bearer, and
 * with it the whole cluster's metrics: a worker's HTTP and entry counters and the
 * primary's draws and database gauges, summed, whichever worker the scrape reaches.
 */
const TOKEN = "metrics-token-for-the-process-test";

test.describe.configure({ mode: "serial" });
test.afterAll(() => removeDataDirs());

async function withServer(env: Record<string, string>, run: (base: string, dataDir: string) => Promise<void>) {
  const dataDir = newDataDir();
  const server: ServerProcess = await startServer(dataDir, env);
  try {
    await waitUntilReady(server);
    await run(`http://localhost:${server.port}`, dataDir);
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

    // The database's figures are read in the background from the start, not at the first scrape.
    await expect.poll(async () => sample(await scrape(base), "raffle_ledger_ok"), { timeout: scaled(30_000) }).toBe(1);
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
      "raffle_database_read_timestamp_seconds",
      "raffle_database_read_duration_seconds",
      "raffle_nodejs_eventloop_lag_seconds",
    ]) {
      expect(before, name).toMatch(new RegExp(`^# TYPE ${name.replace(/_bucket$/, "")} `, "m"));
    }
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

test("a ledger check held up by the database neither holds up nor fails the scrape", async () => {
  test.setTimeout(scaled(120_000));
  const env = { METRICS_TOKEN: TOKEN, WEB_CONCURRENCY: "2", METRICS_LEDGER_CHECK_SECONDS: "1", SCHEDULER_ENABLED: "false" };
  await withServer(env, async (base, dataDir) => {
    const checkedAt = (text: string) => sample(text, "raffle_database_read_timestamp_seconds", { read: "ledger" });
    await expect.poll(async () => sample(await scrape(base), "raffle_ledger_ok"), { timeout: scaled(30_000) }).toBe(1);
    const lastCheck = checkedAt(await scrape(base));
    expect(lastCheck).toBeGreaterThan(0);

    // A lock on the postings stands for a ledger check that takes minutes on a large ledger.
    const db = new pg.Client({ connectionString: await runningDatabaseUrl(dataDir) });
    await db.connect();
    try {
      await db.query("BEGIN");
      await db.query("LOCK TABLE ledger_postings IN ACCESS EXCLUSIVE MODE");
      const waitingChecks = async () => {
        // Inside a transaction, pg_stat_activity keeps its first snapshot unless told.
        await db.query("SELECT pg_stat_clear_snapshot()");
        const { rows } = await db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%ledger_postings%' AND pid <> pg_backend_pid()",
        );
        return rows[0]!.n;
      };
      // Scrapes start the next check (a second after the last); it waits on the lock.
      await expect.poll(async () => (await scrape(base), waitingChecks()), { timeout: scaled(30_000) }).toBe(1);

      const during = await scrape(base);
      expect(sample(during, "raffle_ledger_ok")).toBe(1);
      expect(checkedAt(during)).toBe(lastCheck);
      expect(sample(during, "raffle_payments")).toBeGreaterThanOrEqual(0);
      expect(await waitingChecks()).toBe(1);
    } finally {
      await db.query("ROLLBACK");
      await db.end();
    }
    // Released, the check ends and the next scrapes carry it.
    await expect.poll(async () => checkedAt(await scrape(base)), { timeout: scaled(30_000) }).toBeGreaterThan(lastCheck);
  });
});

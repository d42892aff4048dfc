import { remember } from "@epic-web/remember";
import { createHash, timingSafeEqual } from "node:crypto";
import { Counter, Gauge, Histogram, collectDefaultMetrics, register } from "prom-client";
import { poolStats } from "~/models/db.server";
import { ledgerInvariants } from "~/models/money/ledger.server";
import { countPaymentsByStatus, countPayoutLegsByStatus, countWithdrawalsByStatus } from "~/models/system/status-counts.server";
import { openStreamCount } from "./events.server";
import { getLogger } from "./logger.server";

/**
 * What GET /metrics shows (Prometheus text, prom-client's global registry).
 * server.ts and the Remix build each carry a copy of this module, but prom-client is
 * one package outside both bundles: the metrics are made once per process (remember),
 * so both copies count into the same ones.
 */
const PREFIX = "raffle_";
/** The statuses read from the database are read at most this often, whatever the scrape rate. */
const STATES_EVERY_MS = 15_000;

function createMetrics() {
  collectDefaultMetrics({ prefix: PREFIX, eventLoopMonitoringPrecision: 20 });
  return {
    httpRequests: new Counter({
      name: `${PREFIX}http_requests_total`,
      help: "HTTP requests answered, by method, route pattern and status.",
      labelNames: ["method", "route", "status"] as const,
    }),
    httpDuration: new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: "Time from a request's arrival to the end of its answer, by method, route pattern and status.",
      labelNames: ["method", "route", "status"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
    entries: new Counter({
      name: `${PREFIX}entries_total`,
      help: "Raffle entries, accepted or refused, with the refusal's reason (accepted: reason ok).",
      labelNames: ["result", "reason"] as const,
    }),
    draws: new Counter({
      name: `${PREFIX}draws_total`,
      help: "Raffles drawn: completed with a winner, or cancelled (fewer than two players) and refunded.",
      labelNames: ["outcome"] as const,
    }),
    cancellations: new Counter({
      name: `${PREFIX}raffles_cancelled_total`,
      help: "Raffles cancelled and refunded, by reason: empty (no ticket; not in the audit log), too_few_players, or beacon_unavailable (its beacon round not fetched and verified in time; ADR 033).",
      labelNames: ["reason"] as const,
    }),
    beaconFetches: new Counter({
      name: `${PREFIX}beacon_fetches_total`,
      help: "Answers of the beacon relays to round requests: ok, not_yet, wrong_round, bad_signature, timeout, unreachable, http_error; deadline_passed per round given up.",
      labelNames: ["result"] as const,
    }),
    drawLag: new Histogram({
      name: `${PREFIX}draw_lag_seconds`,
      help: "From a raffle's end to its draw committed (winner paid or tickets refunded); scheduled draws only.",
      buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
    }),
    eventStreams: new Gauge({
      name: `${PREFIX}event_streams_open`,
      help: "Live event streams (/api/events) open.",
      collect() {
        this.set(openStreamCount());
      },
    }),
    dbPool: new Gauge({
      name: `${PREFIX}db_pool_connections`,
      help: "Database pool connections: total open, idle, and requests waiting for one (waiting).",
      labelNames: ["state"] as const,
      collect() {
        const stats = poolStats();
        if (!stats) return;
        this.set({ state: "total" }, stats.total);
        this.set({ state: "idle" }, stats.idle);
        this.set({ state: "waiting" }, stats.waiting);
        this.set({ state: "max" }, stats.max);
      },
    }),
  };
}

function metrics() {
  return remember("raffle:metrics", createMetrics);
}

export function countEntry(outcome: string): void {
  metrics().entries.inc({ result: outcome === "ok" ? "accepted" : "refused", reason: outcome });
}

/** Counts draws committed at `committedAt`; the lag of those that ended before it (early completions did not). */
export function countDraws(draws: { outcome: string; reason?: string; refunded?: number; endsAt?: Date }[], committedAt = new Date()): void {
  const m = metrics();
  for (const draw of draws) {
    m.draws.inc({ outcome: draw.outcome });
    if (draw.reason) m.cancellations.inc({ reason: draw.refunded === 0 ? "empty" : draw.reason });
    if (draw.endsAt && draw.endsAt <= committedAt) m.drawLag.observe((committedAt.getTime() - draw.endsAt.getTime()) / 1000);
  }
}

export function countBeaconFetch(result: string): void {
  metrics().beaconFetches.inc({ result });
}

export function observeHttp(labels: { method: string; route: string; status: number }, seconds: number): void {
  const m = metrics();
  const values = { method: labels.method, route: labels.route, status: String(labels.status) };
  m.httpRequests.inc(values);
  m.httpDuration.observe(values, seconds);
}

type Reading<T> = { value: T; at: number; seconds: number };

/**
 * A figure read from the database away from the scrape. `latest()` answers at once with the
 * last value read (undefined before the first) and, when the last read set out more than
 * `every` ms ago, starts the next, one at a time. The ledger check grows with the ledger: a
 * slow read must not hold up the scrape (the cluster's gathering gives up after seconds), and
 * a failed one must not fail it; the last value stays, and its time shows how old it is.
 */
export function readInBackground<T>(every: number, read: () => Promise<T>, onError: (error: unknown) => void, now = Date.now) {
  let last: Reading<T> | undefined;
  let reading = false;
  let setOut = -Infinity;
  const refresh = () => {
    if (reading || now() - setOut < every) return;
    reading = true;
    setOut = now();
    const started = setOut;
    // Through a promise even if `read` throws at once, so `reading` is always cleared.
    Promise.resolve()
      .then(read)
      .then((value) => {
        last = { value, at: now(), seconds: (now() - started) / 1000 };
      }, onError)
      .finally(() => {
        reading = false;
      });
  };
  return {
    latest(): Reading<T> | undefined {
      refresh();
      return last;
    },
  };
}

/**
 * The gauges read from the database (payments, withdrawals and payout legs by state, the
 * ledger check), in the background (readInBackground). Registered only in the process
 * that owns the jobs (the single process, or the cluster's primary), so that the
 * cluster's sum counts them once. The first scrape starts the first reads: without scrapes
 * the database is not read (a benchmark's phases, a server nobody watches).
 */
export function registerDatabaseGauges({ ledgerCheckSeconds }: { ledgerCheckSeconds: number }): void {
  const gauges = remember("raffle:database-gauges", () => ({ registered: false }));
  if (gauges.registered) return;
  gauges.registered = true;
  const failed = (what: string) => (error: unknown) => getLogger().warn({ err: error }, `could not read the ${what} for /metrics; the last values stay`);
  const states = readInBackground(
    STATES_EVERY_MS,
    async () => {
      const [payments, withdrawals, legs] = await Promise.all([countPaymentsByStatus(), countWithdrawalsByStatus(), countPayoutLegsByStatus()]);
      return { payments, withdrawals, legs };
    },
    failed("statuses"),
  );
  const ledger = readInBackground(ledgerCheckSeconds * 1000, ledgerInvariants, failed("ledger check"));
  const readings = () => [["statuses", states.latest()] as const, ["ledger", ledger.latest()] as const];
  for (const [name, help] of [
    ["payments", "Card payments by status."],
    ["withdrawals", "Withdrawals (payout requests) by status."],
  ] as const) {
    new Gauge({
      name: `${PREFIX}${name}`,
      help,
      labelNames: ["status"] as const,
      collect() {
        const counts = states.latest()?.value[name];
        if (!counts) return;
        this.reset();
        for (const [status, count] of counts) this.set({ status }, count);
      },
    });
  }
  new Gauge({
    name: `${PREFIX}payout_legs`,
    help: "Payout legs (refunds to card, transfers) by kind and status.",
    labelNames: ["kind", "status"] as const,
    collect() {
      const legs = states.latest()?.value.legs;
      if (!legs) return;
      this.reset();
      for (const { kind, status, count } of legs) this.set({ kind, status }, count);
    },
  });
  new Gauge({
    name: `${PREFIX}ledger_ok`,
    help: "1 when the last ledger check passed (every account sums to 0 in all and in bonus coins, balances equal postings, no transaction unbalanced, no floor broken), 0 when it failed, NaN before the first check.",
    collect() {
      const check = ledger.latest()?.value;
      const ok = check && check.total === 0n && check.bonusTotal === 0n && check.mismatched === 0 && check.negative === 0 && check.unbalanced === 0;
      this.set(check ? (ok ? 1 : 0) : Number.NaN);
    },
  });
  new Gauge({
    name: `${PREFIX}ledger_sum_coins`,
    help: "The sum of every ledger account's balance at the last check, in coins (0 when the books balance; NaN before the first check).",
    collect() {
      const check = ledger.latest()?.value;
      this.set(check ? Number(check.total) : Number.NaN);
    },
  });
  new Gauge({
    name: `${PREFIX}database_read_timestamp_seconds`,
    help: "When the figures read from the database were last read (read: statuses, ledger), in Unix seconds: the ledger check's age is now minus this.",
    labelNames: ["read"] as const,
    collect() {
      for (const [read, reading] of readings()) if (reading) this.set({ read }, reading.at / 1000);
    },
  });
  new Gauge({
    name: `${PREFIX}database_read_duration_seconds`,
    help: "How long the last read of the figures read from the database took (read: statuses, ledger).",
    labelNames: ["read"] as const,
    collect() {
      for (const [read, reading] of readings()) if (reading) this.set({ read }, reading.seconds);
    },
  });
}

/** This process's metrics, created if need be (the HTTP and job metrics exist from the first scrape). */
export async function processMetrics() {
  metrics();
  return register.getMetricsAsJSON();
}

export async function metricsText(): Promise<string> {
  metrics();
  return register.metrics();
}

export const METRICS_CONTENT_TYPE = register.contentType;

/** Whether an Authorization header carries `token` as its bearer, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header ?? "")?.[1] ?? "";
  // Equal-length digests, so neither the comparison nor its length check tells anything.
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

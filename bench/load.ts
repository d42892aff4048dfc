import autocannon from "autocannon";

/**
 * A closed-loop HTTP load, sent by autocannon: `connections` keep-alive connections, each
 * sending its next request when the previous answer has arrived, for `warmupSeconds` and
 * then `seconds`. Only answers that arrive after the warm-up count (the server's JIT and
 * caches are warm by then, and the baselines get the same). Latency is measured from
 * sending a request to the end of its answer. Only loopback targets are used.
 *
 * Autocannon encodes each request once and parses answers without building objects for
 * them, so the loader takes a small share of the machine it shares with the app and
 * PostgreSQL (ADR 015); `loaderMsPerRequest` reports that share.
 */
export type Request = { method?: "GET" | "POST"; path: string; headers?: Record<string, string>; body?: string };

export type LoadResult = {
  requests: number;
  /** Responses with the expected status. */
  ok: number;
  failed: number;
  statuses: Record<number, number>;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** The loader's own CPU time (user and system) per answer counted. */
  loaderMsPerRequest: number;
};

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Runs the load. Connection `i` sends `requestsFor(i)` in turn, over and over; `expect`
 * is the status an answer should have (others count as failed, and the first few are kept).
 */
export async function runLoad({
  port,
  connections,
  seconds,
  warmupSeconds = 3,
  requestsFor,
  expect = 200,
}: {
  port: number;
  connections: number;
  seconds: number;
  warmupSeconds?: number;
  requestsFor: (connection: number) => Request[];
  expect?: number;
}): Promise<LoadResult & { failures: string[]; expectedAll: number }> {
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  const failures: string[] = [];
  let ok = 0;
  let failed = 0;
  // Warm-up and tail included: what a caller can check against the database afterwards.
  let expectedAll = 0;
  let nextConnection = 0;
  const started = performance.now();
  const measuredFrom = started + warmupSeconds * 1000;
  const measuredUntil = measuredFrom + seconds * 1000;
  let cpuAtWarmup: NodeJS.CpuUsage | undefined;
  let cpuAtEnd: NodeJS.CpuUsage | undefined;
  const counted = () => {
    const now = performance.now();
    if (now < measuredFrom) return false;
    cpuAtWarmup ??= process.cpuUsage();
    if (now >= measuredUntil) {
      cpuAtEnd ??= process.cpuUsage(cpuAtWarmup);
      return false;
    }
    return true;
  };

  let done!: () => void;
  let fail!: (error: Error) => void;
  const finished = new Promise<void>((resolve, reject) => {
    done = resolve;
    fail = reject;
  });
  const instance = autocannon(
    {
      url: `http://127.0.0.1:${port}`,
      connections,
      // A little past the measured window, so that its last answers are in.
      duration: warmupSeconds + seconds + 0.5,
      // The bench's phases are far shorter than a timeout would need to be to mean anything.
      timeout: 60,
      setupClient(client) {
        client.setRequests(requestsFor(nextConnection++));
      },
    },
    (error) => (error ? fail(error) : done()),
  );
  instance.on("response", (_client, status, _bytes, responseTime) => {
    if (status === expect) expectedAll += 1;
    if (!counted()) return;
    latencies.push(responseTime);
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status === expect) ok += 1;
    else {
      failed += 1;
      if (failures.length < 5) failures.push(`answered ${status}`);
    }
  });
  instance.on("reqError", (error: Error) => {
    if (!counted()) return;
    failed += 1;
    if (failures.length < 5) failures.push(error.message);
  });
  await finished;
  counted();
  const cpu = cpuAtEnd ?? process.cpuUsage(cpuAtWarmup);
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    ok,
    failed,
    statuses,
    seconds,
    perSecond: ok / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? Number.NaN,
    loaderMsPerRequest: (cpu.user + cpu.system) / 1000 / Math.max(1, latencies.length),
    failures,
    expectedAll,
  };
}

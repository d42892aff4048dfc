import http from "node:http";

/**
 * A small closed-loop HTTP loader: `connections` workers, each on its own keep-alive
 * socket, send one request after another for `warmupSeconds` and then `seconds`; only the
 * requests sent after the warm-up count (the server's JIT and caches are warm by then, and
 * the baselines get the same). Latency is measured from sending a request to the end of
 * its response. Only loopback targets are used.
 */
export type Request = { method?: string; path: string; headers?: Record<string, string>; body?: string };

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
};

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function send(agent: http.Agent, port: number, request: Request): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, agent, method: request.method ?? "GET", path: request.path, headers: request.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(request.body);
  });
}

/**
 * Runs the load. `next(worker, n)` makes each worker's n-th request; `expect` is the
 * status a request should get (others count as failed, and the first few are kept).
 */
export async function runLoad({
  port,
  connections,
  seconds,
  warmupSeconds = 3,
  next,
  expect = 200,
  onResponse,
}: {
  port: number;
  connections: number;
  seconds: number;
  warmupSeconds?: number;
  next: (worker: number, n: number) => Request;
  expect?: number;
  onResponse?: (status: number, body: string) => void;
}): Promise<LoadResult & { failures: string[] }> {
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  const failures: string[] = [];
  let ok = 0;
  let failed = 0;
  const measuredFrom = performance.now() + warmupSeconds * 1000;
  const deadline = measuredFrom + seconds * 1000;
  const worker = async (index: number) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let n = 0; performance.now() < deadline; n++) {
        const request = next(index, n);
        const t0 = performance.now();
        const counted = t0 >= measuredFrom;
        try {
          const { status, body } = await send(agent, port, request);
          if (!counted) continue;
          latencies.push(performance.now() - t0);
          statuses[status] = (statuses[status] ?? 0) + 1;
          onResponse?.(status, body);
          if (status === expect) ok += 1;
          else {
            failed += 1;
            if (failures.length < 5) failures.push(`${request.method ?? "GET"} ${request.path} → ${status} ${body.slice(0, 200)}`);
          }
        } catch (error) {
          if (!counted) continue;
          failed += 1;
          if (failures.length < 5) failures.push(`${request.path} → ${(error as Error).message}`);
        }
      }
    } finally {
      agent.destroy();
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, i) => worker(i)));
  const elapsed = (performance.now() - measuredFrom) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    ok,
    failed,
    statuses,
    seconds: elapsed,
    perSecond: ok / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? Number.NaN,
    failures,
  };
}

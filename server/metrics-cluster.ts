import cluster, { type Worker } from "node:cluster";
import { randomUUID } from "node:crypto";
import { AggregatorRegistry } from "prom-client";
import { metricsText, processMetrics } from "../app/infra/metrics.server";

/**
 * /metrics with WEB_CONCURRENCY above 1. The primary serves no HTTP and a
 * scrape reaches whichever worker the port hands it to, so that worker asks the primary,
 * which gathers every worker's metrics and its own (the draws, the payment sweep and the
 * database gauges live there) over the cluster's IPC channel and sums them with
 * prom-client's AggregatorRegistry.aggregate. A worker that does not answer in time is
 * left out of that scrape.
 */
const GATHER_TIMEOUT_MS = 3_000;

type Message =
  | { type: "metrics:scrape"; id: string }
  | { type: "metrics:text"; id: string; text?: string; error?: string }
  | { type: "metrics:collect"; id: string }
  | { type: "metrics:json"; id: string; metrics: object[] };

function isMessage(message: unknown): message is Message {
  const type = (message as { type?: unknown } | null)?.type;
  return typeof type === "string" && type.startsWith("metrics:");
}

/** In the primary: answers the workers' scrapes with the whole cluster's metrics. */
export function serveClusterMetrics(): void {
  const pending = new Map<string, { responses: object[][]; waiting: Set<number>; done: () => void }>();
  cluster.on("message", (worker: Worker, message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === "metrics:json") {
      const gathering = pending.get(message.id);
      if (!gathering) return;
      gathering.responses.push(message.metrics);
      gathering.waiting.delete(worker.id);
      if (gathering.waiting.size === 0) gathering.done();
    } else if (message.type === "metrics:scrape") {
      void gather(pending).then(
        (text) => worker.isConnected() && worker.send({ type: "metrics:text", id: message.id, text } satisfies Message),
        (error: unknown) => worker.isConnected() && worker.send({ type: "metrics:text", id: message.id, error: String(error) } satisfies Message),
      );
    }
  });
}

async function gather(pending: Map<string, { responses: object[][]; waiting: Set<number>; done: () => void }>): Promise<string> {
  const id = randomUUID();
  const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker?.isConnected()) as Worker[];
  const responses: object[][] = [await processMetrics()];
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => done(), GATHER_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      pending.delete(id);
      resolve();
    };
    pending.set(id, { responses, waiting: new Set(workers.map((worker) => worker.id)), done });
    if (workers.length === 0) done();
    for (const worker of workers) worker.send({ type: "metrics:collect", id } satisfies Message);
  });
  return AggregatorRegistry.aggregate(responses).metrics();
}

/** In a worker: hands its metrics to the primary when asked. */
export function answerMetricsRequests(): void {
  process.on("message", (message: unknown) => {
    if (!isMessage(message) || message.type !== "metrics:collect") return;
    void processMetrics().then((metrics) => process.send?.({ type: "metrics:json", id: message.id, metrics } satisfies Message));
  });
}

/** The metrics to serve: this process's, or in a worker the whole cluster's, from the primary. */
export function scrapeMetrics(): Promise<string> {
  if (!cluster.isWorker) return metricsText();
  const id = randomUUID();
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error("the primary did not answer the scrape")), GATHER_TIMEOUT_MS + 2_000);
    const listener = (message: unknown) => {
      if (!isMessage(message) || message.type !== "metrics:text" || message.id !== id) return;
      finish(message.error === undefined ? undefined : new Error(message.error), message.text);
    };
    const finish = (error?: Error, text?: string) => {
      clearTimeout(timer);
      process.off("message", listener);
      if (error) reject(error);
      else resolve(text ?? "");
    };
    process.on("message", listener);
    process.send!({ type: "metrics:scrape", id } satisfies Message);
  });
}

import cluster from "node:cluster";
import type { Env } from "~/infra/env.server";
import { getLogger } from "~/infra/logger.server";
import { registerDatabaseGauges } from "~/infra/metrics.server";
import { serveClusterMetrics } from "./metrics-cluster";
import { logWelcome, onShutdown, openOrExit, startJobs } from "./lifecycle";

/** A cluster's worker still running this long into shutdown is killed (its drain closes connections at 5 s). */
const WORKER_STOP_MS = 7_000;
/** A worker that dies younger than this is replaced after a pause (1 s, doubling, at most MAX_RESTART_PAUSE_MS). */
const YOUNG_WORKER_MS = 10_000;
const MAX_RESTART_PAUSE_MS = 30_000;

/**
 * With WEB_CONCURRENCY above 1, this process opens the database, seeds it and runs the
 * background jobs, and that many workers (node:cluster) share the port and answer the
 * requests (docs/decisions/014-a-worker-per-core.md). A worker that dies is replaced, after
 * a pause that doubles while replacements keep dying young. If a worker dies before the
 * first ones all listen (a taken port, a bad setting), the cluster stops: so would the rest.
 */
export async function runPrimary(env: Env) {
  const logger = getLogger();
  const database = await openOrExit(env);
  const jobs = startJobs(env, "timed");
  // The workers' scrapes are answered here, with every worker's metrics and the jobs'.
  if (env.METRICS_TOKEN) registerDatabaseGauges({ ledgerCheckSeconds: env.METRICS_LEDGER_CHECK_SECONDS });
  serveClusterMetrics();
  // A worker gets the primary's database by URL: demo mode (the embedded database) is passed on explicitly.
  const workerEnv = { DATABASE_URL: database.url, SEED_ON_START: "false", ...(env.demoMode ? { DEMO_MODE: "true" } : {}) };
  const startedAt = new Map<number, number>();
  const listening = new Set<number>();
  let started = false;
  let youngDeaths = 0;
  let stopping = false;
  let failed = false;

  const fork = () => {
    if (stopping) return;
    const worker = cluster.fork(workerEnv);
    startedAt.set(worker.id, Date.now());
  };

  // The first ending signal stops the workers, then the jobs and the database (close-with-grace).
  const shutdown = onShutdown(async ({ signal }) => {
    stopping = true;
    logger.info({ signal: signal ?? "worker failed" }, "shutting down: stopping the workers");
    // No new draw starts while the workers drain; one under way finishes meanwhile.
    const jobsStopped = jobs.stop();
    const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
    // Each worker drains as a single process would; one still running after that is ended,
    // so that the database is closed before the deadline.
    const stragglers = setTimeout(() => {
      for (const worker of workers) if (!worker.isDead()) worker.process.kill("SIGKILL");
    }, WORKER_STOP_MS);
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve();
            worker.once("exit", (code, signal) => {
              // One still starting has no handler yet and dies of the signal: it had nothing to drain.
              const unstarted = signal === "SIGTERM" && !listening.has(worker.id);
              if (code !== 0 && !unstarted) failed = true;
              resolve();
            });
            worker.process.kill("SIGTERM");
          }),
      ),
    );
    clearTimeout(stragglers);
    await jobsStopped;
    await database.close();
    logger.info("stopped");
    if (failed) process.exit(1);
  });

  cluster.on("listening", (worker) => {
    listening.add(worker.id);
    if (listening.size < env.WEB_CONCURRENCY || started) return;
    started = true;
    logger.info(`the site is at http://localhost:${env.PORT}`);
    logWelcome(env);
  });
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    listening.delete(worker.id);
    if (!started) {
      logger.fatal({ pid: worker.process.pid, code, signal }, "a worker stopped before it was listening");
      failed = true;
      shutdown.stop();
      return;
    }
    youngDeaths = lived < YOUNG_WORKER_MS ? youngDeaths + 1 : 0;
    const pause = youngDeaths === 0 ? 0 : Math.min(MAX_RESTART_PAUSE_MS, 1000 * 2 ** (youngDeaths - 1));
    logger.error({ pid: worker.process.pid, code, signal, restartInMs: pause }, "a worker stopped; starting another");
    setTimeout(fork, pause);
  });
  for (let i = 0; i < env.WEB_CONCURRENCY; i++) fork();
  logger.info({ workers: env.WEB_CONCURRENCY, embeddedDatabase: database.embedded }, "starting workers");
}

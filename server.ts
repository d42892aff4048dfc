import cluster from "node:cluster";
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerOptions, type ServerResponse } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import { pinoHttp } from "pino-http";
import { checkReadiness } from "~/models/health.server";
import { openDatabase, type Database } from "~/services/database.server";
import { EmbeddedPostgresError } from "~/services/postgres-user.server";
import { isCrossSite } from "~/services/csrf";
import { directResourceRoutes, readBodyUpTo, remixRequestHandler } from "~/services/express-remix.server";
import { ConfigError, getEnv, type Env } from "~/services/env.server";
import { closeEvents } from "~/services/events.server";
import { startReadModel, stopReadModel } from "~/services/read-model.server";
import { forgetCachedSession } from "~/services/auth.server";
import { getLogger, loggableUrl } from "~/services/logger.server";
import { httpMetrics, routeLabeller } from "~/services/http-metrics.server";
import { bearerMatches, METRICS_CONTENT_TYPE, registerDatabaseGauges } from "~/services/metrics.server";
import { answerMetricsRequests, scrapeMetrics, serveClusterMetrics } from "~/services/metrics-cluster.server";
import { startMailSender } from "~/services/mail/outbox.server";
import { startPaymentSweep } from "~/services/payments.server";
import { startScheduler, type Scheduler } from "~/services/scheduler.server";
import { seed } from "~/services/seed.server";

/** Request bodies larger than this are refused with 413 before any route sees them, announced or chunked. */
const MAX_BODY_BYTES = 1024 * 1024;
/** Everything, database included, is closed within this long of SIGTERM or SIGINT. */
const SHUTDOWN_DEADLINE_MS = 9_000;
/** Connections still open this long into shutdown (long polls, streams) are closed. */
const DRAIN_GRACE_MS = 5_000;
/** A cluster's worker still running this long into shutdown is killed (its drain closes connections at 5 s). */
const WORKER_STOP_MS = 7_000;
/** A worker that dies younger than this is replaced after a pause (1 s, doubling, at most MAX_RESTART_PAUSE_MS). */
const YOUNG_WORKER_MS = 10_000;
const MAX_RESTART_PAUSE_MS = 30_000;

/** A request's headers must all arrive within this long (or the whole request timeout, if shorter). */
const HEADERS_TIMEOUT_MS = 10_000;
/**
 * An idle kept-alive connection stays open this long: longer than the idle timeout of the
 * proxy in front (Fly's closes idle connections after 60 s), so the proxy never sends a
 * request on a connection that we are closing at that moment.
 */
const KEEP_ALIVE_TIMEOUT_MS = 75_000;

/**
 * How long a client may take (ADR 023): the whole request, headers and body, within
 * REQUEST_TIMEOUT_SECONDS (408 and the connection closed after), its headers within 10 s,
 * an idle kept-alive connection 75 s. Node checks the first two on a timer, here a sixth
 * of the request timeout (at most 5 s), so a slow client is cut off soon after its time.
 * Answers take as long as they need: event streams stay open.
 */
function httpTimeouts(env: Env): ServerOptions {
  const requestTimeout = Math.round(env.REQUEST_TIMEOUT_SECONDS * 1000);
  return {
    requestTimeout,
    headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: Math.min(5_000, Math.max(50, Math.round(requestTimeout / 6))),
  };
}

function loadEnv(): Env {
  try {
    return getEnv();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

type Locals = { cspNonce: string; requestId: string; clientIp: string };

function contentSecurityPolicy(env: Env) {
  const nonce = (_req: IncomingMessage, res: ServerResponse) =>
    `'nonce-${(res as unknown as { locals: Locals }).locals.cspNonce}'`;
  const dev = env.NODE_ENV === "development";
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // Stripe.js is loaded from js.stripe.com; 'strict-dynamic' lets nonce'd scripts load it.
        scriptSrc: ["'self'", "'strict-dynamic'", nonce, "https://js.stripe.com"],
        styleSrc: dev ? ["'self'", "'unsafe-inline'"] : ["'self'", nonce],
        styleSrcAttr: ["'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "https://*.stripe.com"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", "https://api.stripe.com", ...(dev ? ["ws:"] : [])],
        frameSrc: ["https://js.stripe.com", "https://hooks.stripe.com"],
        // Without JavaScript, paying posts to us and is redirected to Stripe Checkout.
        formAction: ["'self'", "https://checkout.stripe.com"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    // Same-origin requests keep their Referer (a CSRF signal); other sites get none.
    referrerPolicy: { policy: "same-origin" },
  });
}

async function remixHandler(env: Env) {
  if (env.NODE_ENV === "development") {
    const vite = await import("vite");
    const devServer = await vite.createServer({ server: { middlewareMode: true } });
    return {
      assets: devServer.middlewares,
      build: () => devServer.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>,
      close: () => devServer.close(),
    };
  }
  const buildUrl = new URL("./server/index.js", import.meta.url).href;
  const build = (await import(/* @vite-ignore */ buildUrl)) as ServerBuild;
  const assets = express.Router();
  assets.use("/assets", express.static(new URL("./client/assets", import.meta.url).pathname, { immutable: true, maxAge: "1y" }));
  // The other public files (favicon.svg) have an extension; pages and API paths never look on disk.
  const publicFiles = express.static(new URL("./client", import.meta.url).pathname, { maxAge: "1h" });
  assets.use((req, res, next) => (/\.\w+$/.test(req.path) ? publicFiles(req, res, next) : next()));
  return { assets, build, close: async () => {} };
}

/** The API routes every player hits most, dispatched straight to their module (ADR 013). */
const DIRECT_ROUTES = [
  "routes/api.raffles._index",
  "routes/api.quick-raffles._index",
  "routes/api.raffles.$id.enter",
  "routes/api.quick-raffles.$id.enter",
];

async function main() {
  const env = loadEnv();
  if (cluster.isPrimary && env.WEB_CONCURRENCY > 1) await runPrimary(env);
  else await runServer(env);
}

/** Whatever is still running SHUTDOWN_DEADLINE_MS after shutdown began, the process exits (code 1). */
function exitAtDeadline() {
  const deadline = setTimeout(() => {
    getLogger().error("shutdown deadline passed; exiting");
    process.exit(1);
  }, SHUTDOWN_DEADLINE_MS);
  deadline.unref();
}

/** Opens the database (starting the embedded one when there is no DATABASE_URL), or exits. */
async function openOrExit(env: Env): Promise<Database> {
  const logger = getLogger();
  let database: Database;
  try {
    database = await openDatabase(env, (line) => logger.debug({ component: "postgres" }, line));
  } catch (error) {
    // A known reason, with what to do about it, is one line for the person at the terminal.
    if (error instanceof EmbeddedPostgresError) process.stderr.write(`could not start the embedded PostgreSQL: ${error.message}\n`);
    else logger.fatal({ err: error }, "could not open the database");
    process.exit(1);
  }
  if (database.embeddedDataDir) logger.info({ cluster: database.embeddedDataDir }, "using the embedded PostgreSQL");
  if (env.SEED_ON_START ?? database.embedded) {
    const seeded = await seed({ demoUsers: env.SEED_DEMO_USERS ?? env.demoMode });
    logger.info({ seeded }, "seeded the database");
  }
  return database;
}

/** The draws, the payment sweep and the mail sender: in the one process that owns the database (ADR 014, 032). */
function startJobs(env: Env) {
  if (!env.SCHEDULER_ENABLED) return { stop: async () => {} };
  const scheduler: Scheduler = startScheduler();
  // Payments whose confirmation never came (a closed browser, a crash) are settled from the provider's record.
  const paymentSweep = startPaymentSweep();
  // The outbox's messages: several instances share the work (leases, SKIP LOCKED).
  const mailSender = startMailSender();
  return {
    stop: async () => {
      await scheduler.stop();
      await paymentSweep.stop();
      await mailSender.stop();
    },
  };
}

/**
 * With WEB_CONCURRENCY above 1, this process opens the database, seeds it and runs the
 * background jobs, and that many workers (node:cluster) share the port and answer the
 * requests (docs/decisions/014-a-worker-per-core.md). A worker that dies is replaced, after
 * a pause that doubles while replacements keep dying young. If a worker dies before the
 * first ones all listen (a taken port, a bad setting), the cluster stops: so would the rest.
 */
async function runPrimary(env: Env) {
  const logger = getLogger();
  const database = await openOrExit(env);
  const jobs = startJobs(env);
  // The workers' scrapes are answered here, with every worker's metrics and the jobs' (ADR 026).
  registerDatabaseGauges();
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

  const shutdown = async (signal: NodeJS.Signals | "worker failed") => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: stopping the workers");
    exitAtDeadline();
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
    process.exit(failed ? 1 : 0);
  };

  cluster.on("listening", (worker) => {
    listening.add(worker.id);
    if (listening.size >= env.WEB_CONCURRENCY) started = true;
  });
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    listening.delete(worker.id);
    if (!started) {
      logger.fatal({ pid: worker.process.pid, code, signal }, "a worker stopped before it was listening");
      failed = true;
      void shutdown("worker failed");
      return;
    }
    youngDeaths = lived < YOUNG_WORKER_MS ? youngDeaths + 1 : 0;
    const pause = youngDeaths === 0 ? 0 : Math.min(MAX_RESTART_PAUSE_MS, 1000 * 2 ** (youngDeaths - 1));
    logger.error({ pid: worker.process.pid, code, signal, restartInMs: pause }, "a worker stopped; starting another");
    setTimeout(fork, pause);
  });
  for (let i = 0; i < env.WEB_CONCURRENCY; i++) fork();
  logger.info({ workers: env.WEB_CONCURRENCY, embeddedDatabase: database.embedded }, "starting workers");
  // Node passes a signal's number as the second argument: not an exit code.
  process.on("SIGTERM", (signal) => void shutdown(signal));
  process.on("SIGINT", (signal) => void shutdown(signal));
}

/** One process that answers requests: the whole app, or a worker of runPrimary's. */
async function runServer(env: Env) {
  const logger = getLogger();
  const database = await openOrExit(env);
  // Reads from memory once the listening connection is up (it keeps reconnecting; ADR 013).
  startReadModel().catch((error) => logger.warn({ err: error }, "reads come from the database until the listening connection is up"));
  // A worker leaves the jobs to the primary process, which runs them once for all.
  const jobs = cluster.isWorker ? { stop: async () => {} } : startJobs(env);
  // The database's gauges are read by the process that owns the jobs, once for the cluster (ADR 026).
  if (cluster.isWorker) answerMetricsRequests();
  else registerDatabaseGauges();
  const remix = await remixHandler(env);
  const app = express();
  let shuttingDown = false;

  app.disable("x-powered-by");
  app.use((req, res, next) => {
    const incoming = req.get("x-request-id");
    const requestId = incoming && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    res.locals.cspNonce = randomBytes(16).toString("base64");
    // Only the deploy's own proxy header is trusted (CLIENT_IP_HEADER); a client-sent
    // X-Forwarded-For never decides who is rate limited.
    const fromProxy = env.CLIENT_IP_HEADER ? req.get(env.CLIENT_IP_HEADER) : undefined;
    res.locals.clientIp = (fromProxy?.split(",")[0]?.trim() || req.socket.remoteAddress) ?? "unknown";
    res.setHeader("X-Request-Id", requestId);
    if (shuttingDown) res.setHeader("Connection", "close");
    // A kept-alive connection whose answer ends while the server drains would otherwise
    // stay open until its keep-alive timeout: it is closed as soon as it is idle.
    res.once("close", () => {
      if (shuttingDown) server.closeIdleConnections();
    });
    next();
  });
  app.use(httpMetrics(routeLabeller(typeof remix.build === "function" ? undefined : remix.build)));
  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    if (shuttingDown) {
      res.status(503).json({ status: "shutting down" });
      return;
    }
    const readiness = await checkReadiness();
    if (readiness.ok) res.json({ status: "ready" });
    else res.status(503).json({ status: "not ready", reason: readiness.reason });
  });
  // Prometheus metrics behind a bearer token (METRICS_TOKEN); without one, there is no such page.
  app.get("/metrics", async (req, res) => {
    if (!env.METRICS_TOKEN) {
      res.status(404).json({ message: "Not found" });
      return;
    }
    if (!bearerMatches(req.get("authorization"), env.METRICS_TOKEN)) {
      res.status(401).set("WWW-Authenticate", 'Bearer realm="metrics"').json({ message: "Unauthorized" });
      return;
    }
    try {
      res.set("Content-Type", METRICS_CONTENT_TYPE).set("Cache-Control", "no-store").send(await scrapeMetrics());
    } catch (error) {
      logger.error({ err: error }, "could not gather the metrics");
      res.status(503).json({ message: "Metrics unavailable" });
    }
  });
  app.use(
    pinoHttp({
      logger,
      genReqId: (_req, res) => (res as unknown as { locals: Locals }).locals.requestId,
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info"),
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: loggableUrl(req.url) }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.use(readBodyUpTo(MAX_BODY_BYTES));
  app.use((req, res, next) => {
    const forged = isCrossSite({
      method: req.method,
      path: req.path,
      host: req.get("host"),
      origin: req.get("origin"),
      referer: req.get("referer"),
    });
    if (forged) {
      res.status(403).json({ message: "Cross-site request refused" });
      return;
    }
    next();
  });
  app.use(contentSecurityPolicy(env));
  // Event streams must reach the browser as they are written, not when a buffer fills.
  app.use(compression({ filter: (req, res) => !String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream") && compression.filter(req, res) }));
  app.use(remix.assets);
  const getLoadContext = (_req: express.Request, res: express.Response) => ({
    cspNonce: (res.locals as Locals).cspNonce,
    requestId: (res.locals as Locals).requestId,
    clientIp: (res.locals as Locals).clientIp,
  });
  // What a write changed is read again before its answer leaves: the player reads what they did.
  const afterWrite = forgetCachedSession;
  const remixRequests = remixRequestHandler({ build: remix.build, mode: env.NODE_ENV, afterWrite, getLoadContext });
  if (typeof remix.build !== "function") {
    app.use(directResourceRoutes({ build: remix.build, routeIds: DIRECT_ROUTES, getLoadContext, afterWrite, fallback: remixRequests }));
  }
  app.all("*", remixRequests);

  const server = createServer(httpTimeouts(env), app);
  server.listen(env.PORT, env.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    logger.info({ port, demoMode: env.demoMode, embeddedDatabase: database.embedded }, `listening on http://localhost:${port}`);
  });

  const shutdown = async (signal: NodeJS.Signals) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ signal }, "shutting down: finishing requests in flight");
    exitAtDeadline();
    // No new draw starts; one under way finishes while the requests drain.
    const jobsStopped = jobs.stop();
    // Live event streams never finish by themselves: they end now (browsers poll, or
    // reconnect to another instance), so that the requests in flight are all that remains.
    const streamsClosed = closeEvents();
    const drain = setTimeout(() => {
      logger.warn("closing the connections still open after the drain grace");
      server.closeAllConnections();
    }, DRAIN_GRACE_MS);
    drain.unref();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    clearTimeout(drain);
    await Promise.all([jobsStopped, streamsClosed]);
    stopReadModel();
    await remix.close();
    await database.close();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

await main();

import cluster from "node:cluster";
import { randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { pinoHttp } from "pino-http";
import { checkReadiness } from "~/models/system/health.server";
import { isCrossSite } from "~/shared/csrf";
import type { Env } from "~/infra/env.server";
import { closeEvents, hearEvents } from "~/infra/events.server";
import { startReadModel, stopReadModel } from "~/infra/read-model.server";
import { forgetCachedSession } from "~/web/auth.server";
import { getLogger, loggableUrl } from "~/infra/logger.server";
import { httpMetrics, routeLabeller } from "./server/http-metrics";
import { bearerMatches, METRICS_CONTENT_TYPE, registerDatabaseGauges } from "~/infra/metrics.server";
import { answerMetricsRequests, scrapeMetrics } from "./server/metrics-cluster";
import { runPrimary } from "./server/cluster";
import { contentSecurityPolicy, httpTimeouts, type Locals } from "./server/http";
import { clientGone, flushOncePerBurst, malformedUrlIs400, publicFilesOf, readBodyUpTo, withAfterWrite, withOutageAnswers, withReadBody } from "./server/remix";
import { loadEnv, logWelcome, onShutdown, openOrExit, startJobs } from "./server/lifecycle";

/** Request bodies larger than this are refused with 413 before any route sees them, announced or chunked. */
const MAX_BODY_BYTES = 1024 * 1024;
/** Connections still open this long into shutdown (long polls, streams) are closed. */
const DRAIN_GRACE_MS = 5_000;

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
  assets.use("/assets", express.static(fileURLToPath(new URL("./client/assets", import.meta.url)), { immutable: true, maxAge: "1y" }));
  const client = fileURLToPath(new URL("./client", import.meta.url));
  assets.use(publicFilesOf(client, express.static(client, { maxAge: "1h" })));
  return { assets, build, close: async () => {} };
}

async function main() {
  const env = loadEnv();
  if (cluster.isPrimary && env.WEB_CONCURRENCY > 1) await runPrimary(env);
  else await runServer(env);
}

/** One process that answers requests: the whole app, or a worker of runPrimary's. */
async function runServer(env: Env) {
  const logger = getLogger();
  const database = await openOrExit(env);
  // Game events are kept from the first, for streams that open after their page's read (ADR 104).
  hearEvents();
  // Reads from memory once the listening connection is up (it keeps reconnecting).
  startReadModel().catch((error) => logger.warn({ err: error }, "reads come from the database until the listening connection is up"));
  // A worker leaves the timed jobs (draws, the payment sweep) to the primary process, which
  // runs them once for all; the workers send the outbox's mail.
  const jobs = startJobs(env, cluster.isWorker ? "mail" : "all");
  // The database's gauges are read by the process that owns the jobs, once for the cluster.
  if (cluster.isWorker) answerMetricsRequests();
  else if (env.METRICS_TOKEN) registerDatabaseGauges({ ledgerCheckSeconds: env.METRICS_LEDGER_CHECK_SECONDS });
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
      res
        .set("Content-Type", METRICS_CONTENT_TYPE)
        .set("Cache-Control", "no-store")
        .send(await scrapeMetrics());
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
    clientGone: clientGone(res),
  });
  // Remix through the stock handler. Each action is followed by forgetting what it
  // may have changed from the read model, before the answer is made: the player reads what they did.
  // A database outage is a 503 with Retry-After, never a 500.
  const build = withAfterWrite(withOutageAnswers(remix.build), forgetCachedSession);
  const remixRequests = createRequestHandler({ build, mode: env.NODE_ENV, getLoadContext });
  app.use(flushOncePerBurst);
  app.use((req, res, next) => remixRequests(withReadBody(req, res), res, next));
  app.use(malformedUrlIs400);

  const server = createServer(httpTimeouts(env), app);
  server.listen(env.PORT, env.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    logger.info({ port, demoMode: env.demoMode, embeddedDatabase: database.embedded }, `listening on http://localhost:${port}`);
    if (!cluster.isWorker) logWelcome(env);
  });

  // The first ending signal (or an uncaught error) drains, then closes everything (close-with-grace).
  onShutdown(
    async ({ signal }) => {
      shuttingDown = true;
      logger.info({ signal }, "shutting down: finishing requests in flight");
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
    },
    { worker: cluster.isWorker },
  );
}

await main();

import { readdirSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import type { ServerBuild } from "@remix-run/node";
import { getLogger, loggableUrl } from "~/infra/logger.server";
import { isDatabaseUnavailable, outageResponse } from "~/infra/outage.server";
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";

/**
 * What sits around `@remix-run/express`'s stock request handler: the body read
 * whole up to a limit before any route runs, the read model told of each write before
 * its answer leaves, compression flushed once per burst, and a 400 for a request no URL
 * can be made of.
 */

/** Where `readBodyUpTo` leaves the body it read. */
type BodyLocals = { body?: Buffer };

/**
 * Reads every request body into memory before any route runs; 413 when it is larger than
 * `maxBytes`, whether it announced its length or arrived chunked (no Content-Length), so
 * that no route ever sees, or half-handles, an oversized body (ADR 019's door).
 */
export function readBodyUpTo(maxBytes: number) {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    // The rest of an oversized body is read and dropped (Node's request timeout bounds an endless
    // one): closing the connection early would cut off the client before it reads the 413.
    const tooLarge = () => res.status(413).json({ message: `Request body too large (the limit is ${maxBytes} bytes)` });
    if (Number(req.get("Content-Length") ?? 0) > maxBytes) return tooLarge();
    readUpTo(req, maxBytes).then((body) => {
      if (body === "too large") return tooLarge();
      if (body === "aborted") return; // The client went away: there is no one to answer.
      (res.locals as BodyLocals).body = body;
      next();
    }, next);
  };
}

function readUpTo(req: IncomingMessage, maxBytes: number): Promise<Buffer | "too large" | "aborted"> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: Buffer | "too large" | "aborted") => {
      req.off("data", onData).off("end", onEnd).off("error", onAbort).off("close", onAbort);
      if (result === "too large") req.resume();
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) finish("too large");
      else chunks.push(chunk);
    };
    const onEnd = () => finish(Buffer.concat(chunks));
    const onAbort = () => finish("aborted");
    req.on("data", onData).on("end", onEnd).on("error", onAbort).on("close", onAbort);
  });
}

/**
 * The request as the stock handler should see it: the same request, whose body (a stream
 * the handler reads itself) is now the one `readBodyUpTo` read. The view answers the
 * members of a readable stream (`on`, `pause`, `readable`…) from a stream of that buffer
 * and everything else (method, headers, `get`, `hostname`…) from the request.
 */
export function withReadBody(req: ExpressRequest, res: ExpressResponse): ExpressRequest {
  const body = (res.locals as BodyLocals).body;
  if (!body) return req;
  const stream = new PassThrough();
  stream.end(body);
  return new Proxy(req, {
    get(target, key) {
      if (!(key in stream)) return Reflect.get(target, key);
      const value: unknown = Reflect.get(stream, key);
      return typeof value === "function" ? value.bind(stream) : value;
    },
  });
}

/**
 * Called after an action ran, with its answer's status (undefined when it failed), before
 * Remix answers, and what its route says it leaves alone (`handle.keepsSession`).
 */
export type AfterWrite = (request: Request, status: number | undefined, route: { keepsSession: boolean }) => Promise<void>;

/**
 * The build with every route's action followed by `afterWrite`: a document form post, a
 * fetcher's and an API route's alike, before the answer (or the page rendered after the
 * action) is made, so the player reads what they just did.
 */
export function withAfterWrite<B extends ServerBuild | (() => Promise<ServerBuild>)>(build: B, afterWrite: AfterWrite): B {
  if (typeof build === "function") return (async () => wrapActions(await build(), afterWrite)) as B;
  return wrapActions(build as ServerBuild, afterWrite) as B;
}

function wrapActions(build: ServerBuild, afterWrite: AfterWrite): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const action = route?.module.action;
    if (!route || !action) {
      routes[id] = route;
      continue;
    }
    const kept = { keepsSession: (route.module.handle as { keepsSession?: unknown } | undefined)?.keepsSession === true };
    const wrapped: typeof action = async (args) => {
      let outcome: unknown;
      try {
        outcome = await action(args);
      } catch (thrown) {
        await afterWrite(args.request, statusOf(thrown), kept);
        throw thrown;
      }
      await afterWrite(args.request, statusOf(outcome) ?? 200, kept);
      return outcome as Awaited<ReturnType<typeof action>>;
    };
    routes[id] = { ...route, module: { ...route.module, action: wrapped } };
  }
  return { ...build, routes };
}

/**
 * The build with every route's loader and action answering a database outage with a 503
 * and Retry-After instead of a 500: a thrown Response is the API's answer as is, and a
 * page's error boundary status.
 */
export function withOutageAnswers<B extends ServerBuild | (() => Promise<ServerBuild>)>(build: B): B {
  if (typeof build === "function") return (async () => wrapOutages(await build())) as B;
  return wrapOutages(build as ServerBuild) as B;
}

function wrapOutages(build: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route || (!route.module.loader && !route.module.action)) {
      routes[id] = route;
      continue;
    }
    const module = { ...route.module };
    for (const name of ["loader", "action"] as const) {
      const handler = route.module[name] as ((args: unknown) => Promise<unknown>) | undefined;
      if (!handler) continue;
      (module as Record<string, unknown>)[name] = async (args: { request: Request }) => {
        try {
          return await handler(args);
        } catch (thrown) {
          if (thrown instanceof Response || !isDatabaseUnavailable(thrown)) throw thrown;
          getLogger().warn({ err: thrown, url: loggableUrl(args.request.url) }, "the database is unavailable: answered 503");
          throw outageResponse();
        }
      };
    }
    routes[id] = { ...route, module };
  }
  return { ...build, routes };
}

/** The status an action's result or throw is answered with, when it says one (a Response or `data(…, { status })`). */
function statusOf(outcome: unknown): number | undefined {
  if (outcome instanceof Response) return outcome.status;
  if (typeof outcome === "object" && outcome !== null && (outcome as { type?: unknown }).type === "DataWithResponseInit") {
    return (outcome as { init?: { status?: number } | null }).init?.status ?? 200;
  }
  return undefined;
}

/**
 * The compression middleware's `res.flush` (a gzip sync flush: a block of its own, written
 * to the socket at once) run once per burst of writes rather than after every write. The
 * stock handler writes a page as React hands it over, in pieces of about 2 kB all at once,
 * and flushes after each: the signed-in home page left as 40-odd gzip blocks instead of 2,
 * three times the bytes, and the bench's loader spent 2.2–2.5 ms of CPU per page parsing
 * them against 0.6–0.7 ms. A write that comes later (an event, a part
 * that waited) is still flushed as soon as the loop turns. After `compression`.
 */
export function flushOncePerBurst(_req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
  const flushable = res as ExpressResponse & { flush?: () => void };
  const flush = flushable.flush;
  if (flush) {
    let scheduled = false;
    flushable.flush = () => {
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        if (!res.writableEnded) flush.call(res);
      });
    };
  }
  next();
}

/**
 * A signal aborted when the client goes away before its answer has been sent, for the load
 * context. The Request a loader gets has a signal of its own that follows the adapter's
 * only through a weak reference (undici), so that under memory pressure its abort can be
 * lost: ADR 025 saw 200 event streams dropped at once keep their places. This one is held
 * by the response's own listener.
 */
export function clientGone(res: ExpressResponse): AbortSignal {
  const gone = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  return gone.signal;
}

/** A request URL or Host header no URL can be made of is the client's error (400), not a 500. */
export function malformedUrlIs400(error: unknown, _req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
  if (!res.headersSent && (error as { code?: unknown } | null)?.code === "ERR_INVALID_URL") {
    res.status(400).json({ message: "Malformed request URL or Host header" });
    return;
  }
  next(error);
}

/**
 * The build's public files other than `/assets` (favicon.svg, icons/), named once at start:
 * a request whose first segment is none of them (a page, an API path, single fetch's
 * `.data`) goes on without looking on disk; a stat a request took 1% of the app's CPU under
 * the crowd (issue 36).
 */
export function publicFilesOf(clientDir: string, serve: RequestHandler): RequestHandler {
  const names = new Set(readdirSync(clientDir).filter((name) => name !== "assets"));
  return (req, res, next) => (names.has(req.path.split("/")[1]!) ? serve(req, res, next) : next());
}

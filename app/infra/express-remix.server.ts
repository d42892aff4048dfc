import type { IncomingMessage } from "node:http";
import { gzipSync } from "node:zlib";
import compression from "compression";
import {
  createRequestHandler,
  type AppLoadContext,
  type ServerBuild,
} from "@remix-run/node";
import { getLogger, loggableUrl } from "./logger.server";
import express, { type NextFunction, type Request as ExpressRequest, type Response as ExpressResponse } from "express";

/**
 * The bridge from Express to Remix (what @remix-run/express does), with the body read
 * first: every request body is read here, up to the limit, before any route runs. A body
 * over the limit is answered 413 whether it announced its length or not (a chunked upload
 * has no Content-Length), and no route ever reads one, so none can half-handle it.
 */
type Locals = { body?: Buffer };

/** Reads the body into memory; 413 (and the rest discarded) when it is larger than `maxBytes`. */
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
      (res.locals as Locals).body = body;
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

export function remixRequestHandler({
  build,
  mode,
  getLoadContext,
  afterWrite,
}: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: string;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
  /** Called after a request other than GET or HEAD was handled, before its answer is sent. */
  afterWrite?: (request: Request, response: Response | undefined) => Promise<void>;
}) {
  const handle = createRequestHandler(build, mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const request = toFetchRequest(req, res);
      if (!request) {
        res.status(400).json({ message: "Malformed request URL or Host header" });
        return;
      }
      const response = await handle(request, getLoadContext(req, res));
      if (afterWrite && req.method !== "GET" && req.method !== "HEAD") await afterWrite(request, response);
      await send(res, response);
    } catch (error) {
      next(error);
    }
  };
}

function toFetchRequest(req: ExpressRequest, res: ExpressResponse): Request | undefined {
  let url: URL;
  try {
    // Concatenated, not resolved: a path such as "//host/x" stays a path.
    url = new URL(`${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`);
  } catch {
    return undefined;
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  // Loaders and actions stop when the client goes away before the response is written.
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const body = (res.locals as Locals).body;
  return new Request(url, {
    method: req.method,
    headers,
    signal: controller.signal,
    ...(body && req.method !== "GET" && req.method !== "HEAD" ? { body: new Uint8Array(body) } : {}),
  });
}

async function send(res: ExpressResponse, response: Response): Promise<void> {
  const type = response.headers.get("Content-Type") ?? "";
  const streamed = /text\/(html|event-stream)/i.test(type);
  // Other answers (JSON, redirects, downloads) are small and whole: read before anything is
  // written, so that one that cannot be read leaves nothing of itself (a cookie, a status)
  // on the 500 that answers instead.
  const whole = response.body && !streamed ? Buffer.from(await response.arrayBuffer()) : undefined;
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  // Event streams are sent as they are written.
  if (/text\/event-stream/i.test(type)) res.flushHeaders();
  if (!response.body) {
    res.end();
  } else if (!whole) {
    await writeStreamed(response.body, res);
  } else {
    // Sent with their length, and compressed here in one call when worth it (ADR 014): the
    // compression middleware then finds them encoded and leaves them alone.
    const body = gzipWhole(res, whole);
    res.setHeader("Content-Length", body.length);
    res.end(body);
  }
}

/**
 * Writes a page or an event stream as it is produced. The compression middleware's `flush`
 * (a gzip sync flush: a block of its own, written to the socket at once) runs once per
 * burst of chunks, after the chunks that arrived together, rather than after every chunk
 * as `writeReadableStreamToWritable` does: React hands over a page in pieces of about 2 kB
 * in one go, and flushing each made the signed-in home page 31 gzip blocks and 22 kB on the
 * wire instead of 2 and 7 kB. What arrives later (an event, data that waited) is still
 * flushed as soon as it has been written.
 */
async function writeStreamed(body: ReadableStream<Uint8Array>, res: ExpressResponse): Promise<void> {
  const reader = body.getReader();
  // A client gone before the end cancels the body: an event stream's cancel gives its place
  // back at once (ADR 025), not whenever the request's abort signal reaches it.
  res.once("close", () => {
    if (!res.writableFinished) reader.cancel().catch(() => {});
  });
  let flushScheduled = false;
  const flush = () => {
    flushScheduled = false;
    if (!res.writableEnded) (res as ExpressResponse & { flush?: () => void }).flush?.();
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush);
      }
    }
    res.end();
  } catch (error) {
    res.destroy(error as Error);
    throw error;
  }
}

/** Answers smaller than this are sent as they are (the compression middleware's threshold too). */
const GZIP_THRESHOLD_BYTES = 1024;
/** Larger ones (a long history CSV) are left to the middleware, which compresses off the main thread. */
const GZIP_WHOLE_MAX_BYTES = 64 * 1024;

/**
 * A whole answer of 1–64 kB gzipped in one synchronous call when the client takes gzip and
 * the middleware would have compressed it (a compressible type, no `no-transform`, not HEAD).
 * Gzip even where the middleware would pick Brotli: every browser takes both.
 * For a few kilobytes this costs tens of microseconds, where a gzip stream per answer (the
 * middleware's way, made for answers that arrive in pieces) cost about 0.7 ms per request.
 */
function gzipWhole(res: ExpressResponse, body: Buffer): Buffer {
  const req = res.req;
  if (body.length < GZIP_THRESHOLD_BYTES || body.length > GZIP_WHOLE_MAX_BYTES) return body;
  if (req.method === "HEAD" || res.getHeader("Content-Encoding")) return body;
  if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(String(res.getHeader("Cache-Control") ?? ""))) return body;
  // (The middleware adds `Vary: Accept-Encoding` to these, compressed here or not.)
  if (!compression.filter(req, res)) return body;
  if (req.acceptsEncodings("gzip", "identity") !== "gzip") return body;
  res.setHeader("Content-Encoding", "gzip");
  return gzipSync(body);
}

/**
 * The busiest API routes, dispatched straight to their route module's loader or action:
 * the same code Remix would run for them, without matching the request against the whole
 * route tree twice and building Remix's context for each request (docs/decisions/013-reads-from-memory.md).
 * Only resource routes (no component, no parent data) qualify; anything a handler throws
 * that is not a Response is logged and answered 500, as Remix does.
 */
export function directResourceRoutes({
  build,
  routeIds,
  getLoadContext,
  afterWrite,
  fallback,
}: {
  build: ServerBuild;
  routeIds: string[];
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
  afterWrite?: (request: Request, response: Response | undefined) => Promise<void>;
  /** Where requests go that these routes do not answer (Remix). */
  fallback: (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => void;
}) {
  const router = express.Router({ caseSensitive: false, strict: false });
  for (const id of routeIds) {
    const route = build.routes[id];
    if (!route || route.module.default || route.parentId !== "root" || route.path === undefined) {
      throw new Error(`${id} is not a resource route at the top level`);
    }
    const { loader, action } = route.module;
    router.all(`/${route.path}`, async (req, res, next) => {
      // Remix runs the loader for GET and HEAD and the action for these; anything else
      // (OPTIONS, odd methods, old-style `_data` requests) is Remix's to answer.
      const read = req.method === "GET" || req.method === "HEAD";
      const handler = read ? loader : ACTION_METHODS.has(req.method) ? action : undefined;
      if (!handler || "_data" in req.query) return fallback(req, res, next);
      const request = toFetchRequest(req, res);
      if (!request) return fallback(req, res, next);
      let response: Response | undefined;
      try {
        const answer: unknown = await handler({ request, params: { ...req.params }, context: getLoadContext(req, res) });
        if (!(answer instanceof Response)) throw new Error(`${id} answered something other than a Response`);
        response = answer;
      } catch (thrown) {
        if (thrown instanceof Response) {
          thrown.headers.set("X-Remix-Catch", "yes");
          response = thrown;
        } else if (!request.signal.aborted) {
          // As Remix answers a loader's or action's bug: logged, and a bare 500 (below).
          getLogger().error({ err: thrown, url: loggableUrl(req.originalUrl) }, "unhandled error in a loader or action");
        }
      }
      try {
        if (!read && afterWrite) await afterWrite(request, response);
        if (response) await send(res, response);
        else res.status(500).type("text/plain").send("Unexpected Server Error");
      } catch (error) {
        if (res.headersSent) return next(error);
        getLogger().error({ err: error, url: loggableUrl(req.originalUrl) }, "an answer could not be sent");
        res.status(500).type("text/plain").send("Unexpected Server Error");
      }
    });
  }
  // A path Express cannot decode (a stray "%") is Remix's to answer, as any other path.
  router.use((error: unknown, req: ExpressRequest, res: ExpressResponse, next: NextFunction) =>
    error instanceof URIError ? fallback(req, res, next) : next(error),
  );
  return router;
}

const ACTION_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

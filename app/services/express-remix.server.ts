import type { IncomingMessage } from "node:http";
import {
  createRequestHandler,
  writeReadableStreamToWritable,
  type AppLoadContext,
  type ServerBuild,
} from "@remix-run/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";

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
  afterWrite?: (request: Request) => Promise<void>;
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
      if (afterWrite && req.method !== "GET" && req.method !== "HEAD") await afterWrite(request);
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
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  const type = response.headers.get("Content-Type") ?? "";
  // Event streams are sent as they are written.
  if (/text\/event-stream/i.test(type)) res.flushHeaders();
  if (!response.body) {
    res.end();
  } else if (/text\/(html|event-stream)/i.test(type)) {
    await writeReadableStreamToWritable(response.body, res);
  } else {
    // API answers are small and whole: sent with their length, so that compression skips the
    // ones too small to gain from it instead of starting a gzip stream for each.
    const body = Buffer.from(await response.arrayBuffer());
    res.setHeader("Content-Length", body.length);
    res.end(body);
  }
}

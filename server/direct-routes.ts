import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import express, { type NextFunction, type Request as ExpressRequest, type Response as ExpressResponse } from "express";
import { getLogger, loggableUrl } from "~/infra/logger.server";
import { type BodyLocals } from "./remix";

/**
 * The entry routes' actions, called straight from Express: the same module, request,
 * params and load context Remix would give them, without Remix matching the request
 * against the whole route tree twice. Kept because the bench measured it worth
 * more than 15% on the entries figure; everything else goes through the stock
 * handler. Pass the build `withAfterWrite` made, so that the read model hears of the write.
 * A thrown `Response` is the answer (marked `X-Remix-Catch`, as Remix marks it); anything
 * else is logged and answered 500, as Remix does. Only POST is taken here; other methods,
 * and paths Express cannot decode, go on to Remix.
 */
export function directActions({
  build,
  routeIds,
  getLoadContext,
}: {
  build: ServerBuild;
  routeIds: string[];
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
}) {
  const router = express.Router({ caseSensitive: false, strict: false });
  for (const id of routeIds) {
    const route = build.routes[id];
    const action = route?.module.action;
    if (!route || !action || route.module.default || route.parentId !== "root" || route.path === undefined) {
      throw new Error(`${id} is not a resource route with an action at the top level`);
    }
    // (`all`, not `post`: Express would answer OPTIONS for a `post` route by itself.)
    router.all(`/${route.path}`, async (req, res, next) => {
      // Other methods, and old-style `_data` requests, are Remix's to answer.
      if (req.method !== "POST" || "_data" in req.query) return next();
      const context = getLoadContext(req, res);
      // The action stops when the client goes away before its answer is written (the load context's signal).
      const request = toFetchRequest(req, res, context.clientGone);
      if (!request) return next(); // A Host header no URL can be made of: Remix's handler says 400.
      let response: Response | undefined;
      try {
        const answer: unknown = await action({ request, params: { ...req.params }, context });
        if (!(answer instanceof Response)) throw new Error(`${id} answered something other than a Response`);
        response = answer;
      } catch (thrown) {
        if (thrown instanceof Response) {
          thrown.headers.set("X-Remix-Catch", "yes");
          response = thrown;
        } else if (!request.signal.aborted) {
          getLogger().error({ err: thrown, url: loggableUrl(req.originalUrl) }, "unhandled error in a loader or action");
        }
      }
      try {
        if (response) await sendWhole(res, response);
        else res.status(500).type("text/plain").send("Unexpected Server Error");
      } catch (error) {
        if (res.headersSent) return next(error);
        getLogger().error({ err: error, url: loggableUrl(req.originalUrl) }, "an answer could not be sent");
        res.status(500).type("text/plain").send("Unexpected Server Error");
      }
    });
  }
  // A path Express cannot decode (a stray "%") is Remix's to answer, as any other path.
  router.use((error: unknown, _req: ExpressRequest, _res: ExpressResponse, next: NextFunction) => next(error instanceof URIError ? undefined : error));
  return router;
}

/** The request as Remix would make it, with the body `readBodyUpTo` read; undefined when no URL can be made of it. */
function toFetchRequest(req: ExpressRequest, res: ExpressResponse, signal: AbortSignal | undefined): Request | undefined {
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
  const body = (res.locals as BodyLocals).body;
  return new Request(url, { method: req.method, headers, signal, ...(body ? { body: new Uint8Array(body) } : {}) });
}

/**
 * An entry's answer (JSON or a redirect, small) read whole before anything is written, so
 * that one that cannot be read leaves nothing of itself (a cookie, a status) on the 500
 * that answers instead; sent with its length.
 */
async function sendWhole(res: ExpressResponse, response: Response): Promise<void> {
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  if (body) res.setHeader("Content-Length", body.length);
  res.end(body);
}

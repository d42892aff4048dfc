import { PassThrough } from "node:stream";
import { buffer } from "node:stream/consumers";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "./components/nonce";
import { getLogger, loggableUrl } from "./infra/logger.server";
import { OUTAGE_RETRY_AFTER_SECONDS } from "./infra/outage.server";

declare module "@remix-run/node" {
  interface AppLoadContext {
    cspNonce: string;
    requestId: string;
    /** The client's address, as the deploy's proxy reports it. */
    clientIp: string;
    /**
     * Aborted when the client goes away before its answer is sent (server.ts; absent when a
     * test calls the build in-process). Unlike `request.signal`, which follows the server's
     * signal only weakly and can miss it, this one always fires.
     */
    clientGone?: AbortSignal;
  }
}

export const streamTimeout = 5_000;

/**
 * No page defers data (the loaders finish before the render starts), so an early shell would
 * be the whole page: every client, browser or bot, gets the document whole once rendered, as
 * one body with its length (ADR 089).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} abortDelay={streamTimeout} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          const body = new PassThrough();
          buffer(body).then((html) => {
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            responseHeaders.set("Content-Length", String(html.byteLength));
            // A page rendered for an outage says when to come back, as the API's answer does.
            if (responseStatusCode === 503 && !responseHeaders.has("Retry-After")) responseHeaders.set("Retry-After", String(OUTAGE_RETRY_AFTER_SECONDS));
            resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
          }, reject);
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) getLogger().error({ err: error, requestId: loadContext.requestId }, "render failed");
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  getLogger().error({ err: error, url: loggableUrl(request.url) }, "unhandled error in a loader or action");
}

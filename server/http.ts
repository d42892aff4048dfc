import type { IncomingMessage, ServerOptions, ServerResponse } from "node:http";
import helmet from "helmet";
import type { Env } from "~/infra/env.server";

/** What the first middleware sets on every response, for the later ones and Remix's load context. */
export type Locals = { cspNonce: string; requestId: string; clientIp: string };

/** A request's headers must all arrive within this long (or the whole request timeout, if shorter). */
const HEADERS_TIMEOUT_MS = 10_000;
/**
 * An idle kept-alive connection stays open this long: longer than the idle timeout of the
 * proxy in front (Fly's closes idle connections after 60 s), so the proxy never sends a
 * request on a connection that we are closing at that moment.
 */
const KEEP_ALIVE_TIMEOUT_MS = 75_000;

/**
 * How long a client may take: the whole request, headers and body, within
 * REQUEST_TIMEOUT_SECONDS (408 and the connection closed after), its headers within 10 s,
 * an idle kept-alive connection 75 s. Node checks the first two on a timer, here a sixth
 * of the request timeout (at most 5 s), so a slow client is cut off soon after its time.
 * Answers take as long as they need: event streams stay open.
 */
export function httpTimeouts(env: Env): ServerOptions {
  const requestTimeout = Math.round(env.REQUEST_TIMEOUT_SECONDS * 1000);
  return {
    requestTimeout,
    headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: Math.min(5_000, Math.max(50, Math.round(requestTimeout / 6))),
  };
}

/**
 * Helmet's headers with an enforcing, nonce-based Content Security Policy that allows
 * Stripe.js and Stripe Checkout (the nonce is the request's, from res.locals).
 */
export function contentSecurityPolicy(env: Env) {
  const nonce = (_req: IncomingMessage, res: ServerResponse) => `'nonce-${(res as unknown as { locals: Locals }).locals.cspNonce}'`;
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

import { createCookie, redirect } from "@remix-run/node";
import { getEnv } from "~/infra/env.server";
import { sessionSecret } from "~/infra/session-secret.server";
import {
  adminGateOpen,
  closeSession,
  findCurrentSession,
  forgetAfterWrite,
  hashSessionToken,
  needsOnboarding,
  openSession,
  SESSION_TTL_MS,
  type CurrentSession,
  type SessionUser,
} from "~/services/accounts/sessions.server";

/**
 * The session cookie's name: with Secure cookies (production) the `__Host-` prefix, so a
 * browser keeps it only if it is Secure, for the whole host (Path=/) and no other (no
 * Domain): no subdomain and no plain-HTTP page can plant a session of its own.
 */
export function sessionCookieName(secure = getEnv().secureCookies): string {
  return secure ? "__Host-session" : "__session";
}

let cookie: ReturnType<typeof createCookie> | undefined;
function sessionCookie() {
  cookie ??= createCookie(sessionCookieName(), {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: getEnv().secureCookies,
    secrets: [sessionSecret()],
    maxAge: SESSION_TTL_MS / 1000,
  });
  return cookie;
}

async function tokenFrom(request: Request): Promise<string | undefined> {
  const value = await sessionCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && /^[\w-]{43}$/.test(value) ? value : undefined;
}

/** Reads (GET and HEAD) may take the session from memory; anything else reads the database. */
const isRead = (request: Request) => request.method === "GET" || request.method === "HEAD";

/** The token hash of each request's session cookie: an entry's route and its `afterWrite` both ask. */
const tokenHashOfRequest = new WeakMap<Request, Promise<string | undefined>>();

/** The token hash of the request's session cookie, if it carries one (to forget it after a write). */
export function sessionTokenHash(request: Request): Promise<string | undefined> {
  let tokenHash = tokenHashOfRequest.get(request);
  if (!tokenHash) {
    tokenHash = tokenFrom(request).then((token) => (token ? hashSessionToken(token) : undefined));
    tokenHashOfRequest.set(request, tokenHash);
  }
  return tokenHash;
}

/**
 * After a write this instance answered (every request but GET and HEAD, and a GET that
 * settles a payment). A refusal (4xx) changed nothing, so it keeps the cache (and cannot be
 * used to empty it). A route whose writes leave the session and its user as they were
 * (`handle.keepsSession`: the entries, which change tickets, pots and coins) forgets nothing:
 * the entry queue moved its pots on the kept lists, and tickets and coins are read each page
 * (ADR 101). An entry's play tracking is announced from no instance anyway; a cached session
 * a minute stale is touched again by its next page (ADR 100).
 */
export async function forgetCachedSession(request: Request, status?: number, { keepsSession = false } = {}): Promise<void> {
  if (status !== undefined && status >= 400 && status < 500) return;
  forgetAfterWrite(keepsSession ? undefined : await sessionTokenHash(request), { keepsSession });
}

/**
 * The token hash of the request's session, unchecked, or 401 when it carries none: for a
 * write that checks the session in its own transaction (an entry), saving a round trip.
 */
export async function requireSessionToken(request: Request): Promise<string> {
  const tokenHash = await sessionTokenHash(request);
  if (!tokenHash) throw unauthorized(request);
  return tokenHash;
}

/**
 * Asked again within one loader, the session is read once. Remix gives each loader its own
 * copy of the request: the root's and the page's share the read model's one read instead.
 */
const sessionOfRequest = new WeakMap<Request, Promise<CurrentSession | undefined>>();

/** The signed-in session, or undefined. A suspended player has none. */
export function getSession(request: Request): Promise<CurrentSession | undefined> {
  let session = sessionOfRequest.get(request);
  if (!session) {
    session = sessionTokenHash(request).then((tokenHash) => (tokenHash ? findCurrentSession(tokenHash, { fromMemory: isRead(request) }) : undefined));
    sessionOfRequest.set(request, session);
  }
  return session;
}

export async function getOptionalUser(request: Request) {
  return (await getSession(request))?.user;
}

/**
 * Starts a new session for the user (rotation: any session the request carried is
 * ended) and returns the Set-Cookie header value.
 */
export async function startSession(
  request: Request,
  userId: string,
  { ip, now = new Date(), passkeyVerified = false }: { ip?: string; now?: Date; passkeyVerified?: boolean } = {},
): Promise<string> {
  const token = await openSession({
    userId,
    previousTokenHash: await sessionTokenHash(request),
    userAgent: request.headers.get("User-Agent") ?? undefined,
    ip,
    now,
    passkeyVerified,
  });
  return sessionCookie().serialize(token);
}

/** Ends the request's session on the server and returns the header that clears the cookie. */
export async function endSession(request: Request): Promise<string> {
  const tokenHash = await sessionTokenHash(request);
  if (tokenHash) await closeSession(tokenHash);
  return sessionCookie().serialize("", { maxAge: 0 });
}

function isApi(request: Request) {
  return new URL(request.url).pathname.startsWith("/api/");
}

function returnTo(request: Request) {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

export function unauthorized(request: Request): Response {
  return isApi(request)
    ? Response.json({ message: "Unauthorized" }, { status: 401 })
    : redirect(`/api/login?returnTo=${encodeURIComponent(returnTo(request))}`);
}

/** The signed-in, onboarded session; otherwise throws 401 (API) or a redirect (pages). */
export async function requireSession(request: Request): Promise<CurrentSession> {
  const session = await getSession(request);
  if (!session) throw unauthorized(request);
  if (needsOnboarding(session.user)) {
    throw isApi(request)
      ? Response.json({ message: "Please finish signing up first" }, { status: 403 })
      : redirect(`/onboarding?returnTo=${encodeURIComponent(returnTo(request))}`);
  }
  return session;
}

export async function requireUser(request: Request): Promise<SessionUser> {
  return (await requireSession(request)).user;
}

/** An admin who passed the admin gate within the last 30 minutes; otherwise 403 (API) or the gate (pages). */
export async function requireAdmin(request: Request, now = new Date()): Promise<CurrentSession> {
  const session = await requireSession(request);
  if (!adminGateOpen(session, now)) {
    throw isApi(request) ? Response.json({ message: "Forbidden" }, { status: 403 }) : redirect("/admin-access");
  }
  return session;
}

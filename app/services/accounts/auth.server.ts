import { createHash, randomBytes } from "node:crypto";
import { createCookie, redirect } from "@remix-run/node";
import { sessionPasskeyVerified } from "~/models/accounts/passkey.server";
import * as sessions from "~/models/accounts/session.server";
import * as readModel from "~/infra/read-model.server";
import { getEnv } from "~/infra/env.server";
import { placesServed } from "~/shared/jurisdictions";
import { sessionSecret } from "~/infra/session-secret.server";

/**
 * Sessions live in the database; the cookie holds only a random token, and the
 * database only the token's SHA-256. Sessions expire, rotate at sign-in, and can be
 * revoked (sign out, sign out everywhere, suspension).
 */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** The admin gate holds this long. */
export const ADMIN_GATE_TTL_MS = 30 * 60 * 1000;

/**
 * The session cookie's name: with Secure cookies (production) the `__Host-` prefix, so a
 * browser keeps it only if it is Secure, for the whole host (Path=/) and no other (no
 * Domain): no subdomain and no plain-HTTP page can plant a session of its own (ADR 027).
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

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

async function tokenFrom(request: Request): Promise<string | undefined> {
  const value = await sessionCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && /^[\w-]{43}$/.test(value) ? value : undefined;
}

export type SessionUser = NonNullable<Awaited<ReturnType<typeof sessions.findSession>>>["user"];
export type CurrentSession = {
  id: string;
  adminGatePassedAt: Date | null;
  /** When this stretch of play began, and when its last reality check was dismissed. */
  playStartedAt: Date;
  realityCheckAt: Date | null;
  user: SessionUser;
};

/** A new stretch of play begins after this long without a request. */
export const PLAY_IDLE_GAP_MS = 30 * 60 * 1000;
/** How often a session's last request is written down. */
const PLAY_SEEN_PRECISION_MS = 60 * 1000;

/** Reads (GET and HEAD) may take the session from memory; anything else reads the database. */
const isRead = (request: Request) => request.method === "GET" || request.method === "HEAD";

async function readSession(request: Request): Promise<CurrentSession | undefined> {
  const tokenHash = await sessionTokenHash(request);
  if (!tokenHash) return undefined;
  const now = new Date();
  const find = () => sessions.findSession(tokenHash, now, placesServed(getEnv().ALLOWED_COUNTRIES));
  // Taken before the read: what is stored below must not be older than a change heard meanwhile.
  const version = readModel.currentVersion();
  const session = isRead(request) ? await readModel.session(tokenHash, now, find) : await find();
  if (!session || session.user.suspendedAt) return undefined;
  if (now.getTime() - session.playSeenAt.getTime() < PLAY_SEEN_PRECISION_MS) return session;
  const play = await sessions.touchPlay(session.id, now, PLAY_IDLE_GAP_MS);
  if (!play) return undefined;
  const touched = { ...session, ...play, playSeenAt: now };
  if (isRead(request)) readModel.storeSession(tokenHash, touched, version);
  return touched;
}

/** The token hash of each request's session cookie: an entry's route and its `afterWrite` both ask. */
const tokenHashOfRequest = new WeakMap<Request, Promise<string | undefined>>();

/** The token hash of the request's session cookie, if it carries one (to forget it after a write). */
export function sessionTokenHash(request: Request): Promise<string | undefined> {
  let tokenHash = tokenHashOfRequest.get(request);
  if (!tokenHash) {
    tokenHash = tokenFrom(request).then((token) => (token ? hashToken(token) : undefined));
    tokenHashOfRequest.set(request, tokenHash);
  }
  return tokenHash;
}

/**
 * After a write this instance answered (every request but GET and HEAD, and a GET that
 * settles a payment): the request's session and the game are read again next time, so the
 * player reads what they did. A refusal (4xx) changed nothing, so it keeps the cache (and
 * cannot be used to empty it). See docs/decisions/013-reads-from-memory.md.
 */
export async function forgetCachedSession(request: Request, status?: number): Promise<void> {
  if (status !== undefined && status >= 400 && status < 500) return;
  readModel.afterWrite(await sessionTokenHash(request));
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

/** The root loader and the page's loader both ask; the database is asked once per request. */
const sessionOfRequest = new WeakMap<Request, Promise<CurrentSession | undefined>>();

/** The signed-in session, or undefined. A suspended player has none. */
export function getSession(request: Request): Promise<CurrentSession | undefined> {
  let session = sessionOfRequest.get(request);
  if (!session) {
    session = readSession(request);
    sessionOfRequest.set(request, session);
  }
  return session;
}

/**
 * Whether this session was signed in with a passkey whose authenticator verified its user
 * (PIN or biometrics): possession and a second factor in one (ADR 037). For the admin gate
 * to count an admin's passkey as their second factor; not wired to it yet.
 */
export function signedInWithPasskey(session: Pick<CurrentSession, "id">): Promise<boolean> {
  return sessionPasskeyVerified(session.id);
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
  const previous = await sessionTokenHash(request);
  if (previous) await sessions.deleteSession(previous);
  const token = randomBytes(32).toString("base64url");
  await sessions.createSessionRow({
    tokenHash: hashToken(token),
    userId,
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
    userAgent: request.headers.get("User-Agent")?.slice(0, 300) ?? undefined,
    ip,
    passkeyVerifiedAt: passkeyVerified ? now : undefined,
  });
  return sessionCookie().serialize(token);
}

/** Ends the request's session on the server and returns the header that clears the cookie. */
export async function endSession(request: Request): Promise<string> {
  const tokenHash = await sessionTokenHash(request);
  if (tokenHash) await sessions.deleteSession(tokenHash);
  return sessionCookie().serialize("", { maxAge: 0 });
}

export async function endAllSessions(userId: string): Promise<void> {
  await sessions.deleteUserSessions(userId);
  // At once on this instance; the others hear it from the database.
  readModel.forgetPlayer(userId);
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

/** Whether a signed-in user still has to give their date of birth and country, or accept the Terms. */
export function needsOnboarding(user: Pick<SessionUser, "dateOfBirth" | "termsAcceptedAt" | "country">): boolean {
  return user.dateOfBirth === null || user.termsAcceptedAt === null || user.country === null;
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

/** Whether the session is an admin's that passed the admin gate within the last 30 minutes. */
export function adminGateOpen(session: Pick<CurrentSession, "user" | "adminGatePassedAt">, now = new Date()): boolean {
  return session.user.isAdmin && session.adminGatePassedAt !== null && now.getTime() - session.adminGatePassedAt.getTime() < ADMIN_GATE_TTL_MS;
}

/** An admin who passed the admin gate within the last 30 minutes; otherwise 403 (API) or the gate (pages). */
export async function requireAdmin(request: Request, now = new Date()): Promise<CurrentSession> {
  const session = await requireSession(request);
  if (!adminGateOpen(session, now)) {
    throw isApi(request) ? Response.json({ message: "Forbidden" }, { status: 403 }) : redirect("/admin-access");
  }
  return session;
}

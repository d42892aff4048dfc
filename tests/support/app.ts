import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { db } from "~/models/db.server";
import { startSession } from "~/web/auth.server";
import { createTestUser } from "./factories";

/**
 * The production Remix build, called in-process with real Requests (no HTTP server):
 * every loader, action and guard runs as in production, on this test file's database.
 * `npm test` builds before it runs Vitest.
 */
const build = (await import(pathToFileURL(path.resolve("build/server/index.js")).href)) as ServerBuild;
const handler = createRequestHandler(build, "production");

export const routeIds = Object.keys(build.routes).filter((id) => id !== "root");

/** A route's whole URL pattern: a nested route's path (an admin tab's "payouts") follows its parents'. */
function fullPath(id: string): string {
  const route = build.routes[id]!;
  const parent = route.parentId && route.parentId !== "root" ? fullPath(route.parentId) : "";
  return route.path ? `${parent}/${route.path.replace(/^\//, "")}` : parent;
}

/** Every route's URL pattern and whether it answers GET (loader) and POST (action). */
export const routeTable = routeIds.map((id) => {
  const route = build.routes[id]!;
  return { id, path: fullPath(id) || "/", loader: Boolean(route.module.loader), action: Boolean(route.module.action) };
});

export type Call = {
  method?: string;
  cookie?: string;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** The client address the deploy's proxy would report (rate limits count per address). */
  ip?: string;
  /** A raw body, sent as is (webhooks, hostile input). */
  body?: BodyInit;
  /** The site's address as the request names it (links the answer makes start with it). */
  origin?: string;
};

export async function call(
  pathname: string,
  { method = "GET", cookie, json, form, headers = {}, ip = "127.0.0.1", body, origin = "http://localhost" }: Call = {},
): Promise<Response> {
  const init: RequestInit = { method, headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) }, redirect: "manual" };
  if (body !== undefined) {
    init.body = body;
  } else if (json !== undefined) {
    init.body = JSON.stringify(json);
    (init.headers as Record<string, string>)["Content-Type"] = "application/json";
  } else if (form) {
    init.body = new URLSearchParams(form).toString();
    (init.headers as Record<string, string>)["Content-Type"] = "application/x-www-form-urlencoded";
  }
  return handler(new Request(`${origin}${pathname}`, init), {
    cspNonce: "test-nonce",
    requestId: "test",
    clientIp: ip,
  });
}

/** A session cookie for the user, made the way sign-in makes one. */
export async function sessionCookie(userId: string): Promise<string> {
  const setCookie = await startSession(new Request("http://localhost/"), userId);
  return setCookie.split(";")[0]!;
}

/** An admin signed in past the admin gate (ADR 036), with the session's cookie. */
export async function gatedAdmin() {
  const admin = await createTestUser({ isAdmin: true, identityVerified: false });
  const cookie = await sessionCookie(admin.id);
  await db().session.updateMany({ where: { userId: admin.id }, data: { adminGatePassedAt: new Date() } });
  return { ...admin, cookie };
}

/** The name=value pairs a response sets, to send back as a Cookie header. */
export function cookiesFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
}

/** A page's HTML without React's text separators (<!-- -->), for text assertions. */
export async function pageText(response: Response): Promise<string> {
  return (await response.text()).replaceAll("<!-- -->", "");
}

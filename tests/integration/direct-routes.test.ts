import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { sessionCookieName } from "~/web/auth.server";
import { call, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";
import { startProductionServerForFile } from "../support/test-server";

/**
 * The entry routes' actions are called by server.ts straight from Express (directActions,
 * ADR 039). The production server, on this file's database, must answer them exactly as
 * Remix does (`call` runs the same build through Remix, in-process).
 */
const production = startProductionServerForFile();

type Sent = { method?: string; cookie?: string; json?: unknown; form?: Record<string, string>; headers?: Record<string, string> };

/** The same request through the server's direct dispatch and through Remix. */
async function both(pathname: string, { method = "GET", cookie, json, form, headers = {} }: Sent = {}) {
  const init = { method, cookie, json, form, headers: { ...headers, Origin: production.origin, Referer: `${production.origin}/` } };
  const viaRemix = await call(pathname, init);
  const body = json !== undefined ? JSON.stringify(json) : form ? new URLSearchParams(form).toString() : undefined;
  const viaServer = await fetch(`${production.origin}${pathname}`, {
    method,
    redirect: "manual",
    headers: {
      ...init.headers,
      ...(cookie ? { Cookie: cookie } : {}),
      ...(json !== undefined ? { "Content-Type": "application/json" } : form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
    },
    body,
  });
  return { viaRemix, viaServer };
}

/** Status, the headers a client acts on, and the body (the seconds left may tick between the two). */
async function answer(response: Response) {
  const text = await response.text();
  return {
    status: response.status,
    // (Express adds the charset to every Content-Type, whichever way the answer came.)
    type: response.headers.get("Content-Type")?.replace("; charset=utf-8", ""),
    location: response.headers.get("Location"),
    retryAfter: response.headers.get("Retry-After"),
    toast: response.headers.getSetCookie().some((c) => c.startsWith("__toast=")),
    body: text.replace(/"timeRemaining":\d+/g, '"timeRemaining":0'),
  };
}

/**
 * A session cookie under both names: `__session` for the build called here (NODE_ENV=test),
 * `__Host-session` for the production server (ADR 027); each reads its own.
 */
async function cookieForBoth(userId: string) {
  const cookie = await sessionCookie(userId);
  return `${cookie}; ${cookie.replace(/^__session=/, `${sessionCookieName(true)}=`)}`;
}

async function player() {
  const user = await createTestUser({ coins: 10_000n });
  return { ...user, cookie: await cookieForBoth(user.id) };
}

describe("entry routes dispatched straight to their action answer as Remix does", () => {
  it("answers entries' failures alike: malformed, unknown, signed out, wrong method, wrong kind", async () => {
    const p = await player();
    const quick = await createTestRaffle({ kind: "quick", tier: "bolt", entryPrice: 10n });
    const cases: [string, Sent][] = [
      ["/api/raffles/not-a-uuid/enter", { method: "POST", cookie: p.cookie, json: {} }],
      ["/api/raffles/00000000-0000-4000-8000-000000000000/enter", { method: "POST", cookie: p.cookie, json: {} }],
      [`/api/raffles/${quick.id}/enter`, { method: "POST", cookie: p.cookie, json: {} }],
      [`/api/raffles/${quick.id}/enter`, { method: "POST", json: {} }],
      [`/api/raffles/${quick.id}/enter`, { method: "POST", cookie: "__session=forged", json: {} }],
      [`/api/raffles/${quick.id}/enter`, { cookie: p.cookie }],
      ["/api/raffles", { method: "POST", cookie: p.cookie, json: {} }],
      [`/api/raffles/${quick.id}/enter`, { method: "OPTIONS", cookie: p.cookie }],
      [`/api/quick-raffles/${quick.id}/enter`, { method: "OPTIONS", cookie: p.cookie }],
      ["/api/quick-raffles/not-a-uuid/enter?_data=routes%2Fapi.quick-raffles.%24id.enter", { method: "POST", cookie: p.cookie, json: {} }],
      ["/api/raffles/%E0%A4%A/enter", { method: "POST", cookie: p.cookie, json: {} }],
      [`/api/quick-raffles/${quick.id}/enter`, { method: "POST", cookie: p.cookie, headers: { "Idempotency-Key": "has space" }, json: {} }],
    ];
    for (const [pathname, sent] of cases) {
      const { viaRemix, viaServer } = await both(pathname, sent);
      expect(await answer(viaServer), `${sent.method ?? "GET"} ${pathname}`).toEqual(await answer(viaRemix));
    }
    expect(await db().entry.count({ where: { userId: p.id } })).toBe(0);
  });

  it("enters through JSON and through a form post (answered with JSON too, ADR 040), and replays an Idempotency-Key", async () => {
    const p = await player();
    const raffle = await createTestRaffle({ maxTicketsPerPlayer: 100 });
    const json = await both(`/api/raffles/${raffle.id}/enter`, { method: "POST", cookie: p.cookie, json: {} });
    const [server, remix] = [await answer(json.viaServer), await answer(json.viaRemix)];
    expect(server.status).toBe(200);
    expect({ ...server, body: "" }).toEqual({ ...remix, body: "" });
    const form = await both(`/api/raffles/${raffle.id}/enter`, { method: "POST", cookie: p.cookie, form: {} });
    expect({ ...(await answer(form.viaServer)), body: "" }).toEqual({ ...(await answer(form.viaRemix)), body: "" });
    expect(form.viaServer.status).toBe(200);

    const keyed = { method: "POST", cookie: p.cookie, json: {}, headers: { "Idempotency-Key": "direct-1" } };
    const first = await fetch(`${production.origin}/api/raffles/${raffle.id}/enter`, {
      method: "POST",
      headers: { ...keyed.headers, Cookie: p.cookie, Origin: production.origin, "Content-Type": "application/json" },
      body: "{}",
    });
    const repeat = await call(`/api/raffles/${raffle.id}/enter`, keyed);
    expect(repeat.status).toBe(200);
    expect(repeat.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await repeat.text()).toBe(await first.text());
    expect(await db().entry.count({ where: { userId: p.id } })).toBe(5);
  });
});

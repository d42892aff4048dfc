import { get } from "node:http";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { sessionCookieName } from "~/services/auth.server";
import { call, sessionCookie } from "../support/app";
import { testDatabaseUrl } from "../support/database-setup";
import { createTestRaffle, createTestUser } from "../support/factories";
import { freePort, startServer, stopServer, waitUntilReady, type ServerProcess } from "../support/server-process";

/**
 * The busiest API routes are dispatched by server.ts straight to their route modules
 * (directResourceRoutes). The production server, on this file's database, must answer
 * them exactly as Remix does (`call` runs the same build through Remix, in-process).
 */
let server: ServerProcess;
let origin: string;

beforeAll(async () => {
  server = await startServer(path.resolve(process.env.DATA_DIR ?? ".data/test"), {
    DATABASE_URL: testDatabaseUrl,
    DEMO_MODE: "true",
    PORT: String(await freePort({ from: 3400, to: 3449 })),
    LOG_LEVEL: "warn",
    // No raffles opened or drawn between the two answers compared.
    SCHEDULER_ENABLED: "false",
    ENTRY_LIMIT_PER_SECOND: "1000",
  });
  await waitUntilReady(server);
  origin = `http://127.0.0.1:${server.port}`;
}, 90_000);

afterAll(async () => {
  await stopServer(server);
});

type Sent = { method?: string; cookie?: string; json?: unknown; form?: Record<string, string>; headers?: Record<string, string> };

/** The same request through the server's direct dispatch and through Remix. */
async function both(pathname: string, { method = "GET", cookie, json, form, headers = {} }: Sent = {}) {
  const init = { method, cookie, json, form, headers: { ...headers, Origin: origin, Referer: `${origin}/` } };
  const viaRemix = await call(pathname, init);
  const body = json !== undefined ? JSON.stringify(json) : form ? new URLSearchParams(form).toString() : undefined;
  const viaServer = await fetch(`${origin}${pathname}`, {
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

describe("routes dispatched straight to their module answer as Remix does", () => {
  it("lists raffles, signed in or not, and HEAD", async () => {
    const p = await player();
    await createTestRaffle();
    await createTestRaffle({ kind: "quick", tier: "bolt", entryPrice: 10n });
    for (const [pathname, cookie] of [
      ["/api/raffles", p.cookie],
      ["/api/quick-raffles", p.cookie],
      ["/api/raffles", undefined],
      ["/api/raffles/", p.cookie],
    ] as const) {
      const { viaRemix, viaServer } = await both(pathname, { cookie });
      expect(await answer(viaServer), pathname).toEqual(await answer(viaRemix));
    }
    const head = await fetch(`${origin}/api/raffles`, { method: "HEAD", headers: { Cookie: p.cookie } });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("gzips a whole answer of 1 kB or more for a client that takes gzip, with its compressed length, and no other", async () => {
    const p = await player();
    await Promise.all(Array.from({ length: 6 }, () => createTestRaffle()));
    /** The bytes on the wire (fetch would decompress them). */
    const raw = (pathname: string, headers: Record<string, string>, method = "GET") =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        get(`${origin}${pathname}`, { headers, method }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
        }).on("error", reject);
      });
    const stable = (json: string) => json.replace(/"timeRemaining":\d+/g, '"timeRemaining":0');

    const zipped = await raw("/api/raffles", { Cookie: p.cookie, "Accept-Encoding": "br;q=1, gzip;q=0.8" });
    expect(zipped.status).toBe(200);
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers["vary"]).toMatch(/Accept-Encoding/i);
    expect(Number(zipped.headers["content-length"])).toBe(zipped.body.length);
    const plain = await raw("/api/raffles", { Cookie: p.cookie });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.length).toBeGreaterThanOrEqual(1024);
    expect(Number(plain.headers["content-length"])).toBe(plain.body.length);
    expect(stable(gunzipSync(zipped.body).toString())).toBe(stable(plain.body.toString()));

    const refused = await raw("/api/raffles", { Cookie: p.cookie, "Accept-Encoding": "gzip;q=0, identity" });
    expect(refused.headers["content-encoding"]).toBeUndefined();
    // Too small to gain: a signed-out answer.
    const small = await raw("/api/raffles", { "Accept-Encoding": "gzip" });
    expect(small.status).toBe(401);
    expect(small.headers["content-encoding"]).toBeUndefined();
    const head = await raw("/api/raffles", { Cookie: p.cookie, "Accept-Encoding": "gzip" }, "HEAD");
    expect([head.status, head.headers["content-encoding"], head.body.length]).toEqual([200, undefined, 0]);
    // A page (streamed) is still compressed by the middleware.
    const page = await raw("/rules", { "Accept-Encoding": "gzip" });
    expect(page.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(page.body).toString()).toContain("</html>");
  });

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
    const first = await fetch(`${origin}/api/raffles/${raffle.id}/enter`, {
      method: "POST",
      headers: { ...keyed.headers, Cookie: p.cookie, Origin: origin, "Content-Type": "application/json" },
      body: "{}",
    });
    const repeat = await call(`/api/raffles/${raffle.id}/enter`, keyed);
    expect(repeat.status).toBe(200);
    expect(repeat.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await repeat.text()).toBe(await first.text());
    expect(await db().entry.count({ where: { userId: p.id } })).toBe(5);
  });

  it("shows a player their own change on the next read even when no notification comes (forgotten before the answer leaves)", async () => {
    const user = await createTestUser({ username: false });
    const cookie = await cookieForBoth(user.id);
    const me = async () => ((await (await fetch(`${origin}/api/auth/user`, { headers: { Cookie: cookie } })).json()) as { username: string | null }).username;
    expect(await me()).toBeNull(); // the session is now in the server's memory
    await db().$executeRawUnsafe(`ALTER TABLE users DISABLE TRIGGER users_read_model_update`);
    try {
      const created = await fetch(`${origin}/api/auth/create-username`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: origin, "Content-Type": "application/json" },
        body: JSON.stringify({ username: `direct_${user.id.slice(0, 6)}` }),
      });
      expect(created.status).toBe(200);
      expect(await me()).toBe(`direct_${user.id.slice(0, 6)}`);
    } finally {
      await db().$executeRawUnsafe(`ALTER TABLE users ENABLE TRIGGER users_read_model_update`);
    }
  });

  it("shows a player their entry on the very next read (the write is forgotten before its answer leaves)", async () => {
    const p = await player();
    const raffle = await createTestRaffle({ maxTicketsPerPlayer: 100 });
    const headers = { Cookie: p.cookie, Origin: origin, "Content-Type": "application/json" };
    for (let tickets = 1; tickets <= 20; tickets++) {
      expect((await fetch(`${origin}/api/raffles/${raffle.id}/enter`, { method: "POST", headers, body: "{}" })).status).toBe(200);
      const listed = (await (await fetch(`${origin}/api/raffles`, { headers: { Cookie: p.cookie } })).json()) as { id: string; myTickets: number; ticketCount: number }[];
      expect(listed.find((r) => r.id === raffle.id)).toMatchObject({ myTickets: tickets, ticketCount: tickets });
    }
  });
});

import { get } from "node:http";
import { connect } from "node:net";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { sessionCookieName } from "~/web/auth.server";
import { sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";
import { startProductionServerForFile } from "../support/test-server";
import { unannounced } from "../support/read-model";

/**
 * The production server (server.ts: Express, the stock `@remix-run/express` handler and
 * `compression`, ADR 039) on this file's database: what it adds around Remix. A player
 * reads their own write on the very next read, compression answers by what the client
 * takes, a client gone away gives its event stream's place back, a request no URL can be
 * made of is a 400. (Bodies over the limit: tests/e2e/process/body-limit.spec.ts.)
 */
const production = startProductionServerForFile();

/** A session cookie under the production server's name (`__Host-session`, ADR 027). */
async function cookieFor(userId: string) {
  const cookie = await sessionCookie(userId);
  return cookie.replace(/^__session=/, `${sessionCookieName(true)}=`);
}

/** The bytes on the wire (fetch would decompress them). */
function raw(pathname: string, headers: Record<string, string>, method = "GET") {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    get(`${production.origin}${pathname}`, { headers, method }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    }).on("error", reject);
  });
}

describe("the production server around Remix", () => {
  it("shows a player their own change on the next read even when no notification comes (forgotten before the answer leaves)", async () => {
    const user = await createTestUser({ username: false });
    const cookie = await cookieFor(user.id);
    const me = async () =>
      ((await (await fetch(`${production.origin}/api/auth/user`, { headers: { Cookie: cookie } })).json()) as { username: string | null }).username;
    expect(await me()).toBeNull(); // the session is now in the server's memory
    await db().$executeRawUnsafe(`ALTER TABLE users DISABLE TRIGGER users_read_model_update`);
    try {
      const created = await fetch(`${production.origin}/api/auth/create-username`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: production.origin, "Content-Type": "application/json" },
        body: JSON.stringify({ username: `http_${user.id.slice(0, 6)}` }),
      });
      expect(created.status).toBe(200);
      expect(await me()).toBe(`http_${user.id.slice(0, 6)}`);
    } finally {
      await db().$executeRawUnsafe(`ALTER TABLE users ENABLE TRIGGER users_read_model_update`);
    }
  });

  it("shows a player their entry on the very next read, sent as JSON or as a plain form post", async () => {
    const user = await createTestUser({ coins: 10_000n });
    const cookie = await cookieFor(user.id);
    const raffle = await createTestRaffle({ maxTicketsPerPlayer: 100 });
    for (let tickets = 1; tickets <= 20; tickets++) {
      const form = tickets % 2 === 0;
      // The API answers JSON; the page's own form posts to the page action, which redirects back (ADR 040).
      const entered = await fetch(`${production.origin}${form ? "" : "/api"}/raffles/${raffle.id}/enter`, {
        method: "POST",
        redirect: "manual",
        headers: { Cookie: cookie, Origin: production.origin, "Content-Type": form ? "application/x-www-form-urlencoded" : "application/json" },
        body: form ? "" : "{}",
      });
      expect(entered.status).toBe(form ? 302 : 200);
      const listed = (await (await fetch(`${production.origin}/api/raffles`, { headers: { Cookie: cookie } })).json()) as {
        id: string;
        myTickets: number;
        ticketCount: number;
      }[];
      expect(listed.find((r) => r.id === raffle.id)).toMatchObject({ myTickets: tickets, ticketCount: tickets });
    }
  });

  it("keeps the player's session in memory after an entry, which changes only the game", async () => {
    const user = await createTestUser({ coins: 1_000n });
    const cookie = await cookieFor(user.id);
    const raffle = await createTestRaffle();
    const me = async () =>
      ((await (await fetch(`${production.origin}/api/auth/user`, { headers: { Cookie: cookie } })).json()) as { username: string | null }).username;
    const before = await me(); // the session is now in the server's memory
    // A change no one is told of: only forgetting the session would show it.
    await unannounced(() => db().user.update({ where: { id: user.id }, data: { username: `kept_${user.id.slice(0, 6)}` } }));
    const entered = await fetch(`${production.origin}/raffles/${raffle.id}/enter`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, Origin: production.origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(entered.status).toBe(302);
    expect(await me()).toBe(before);
    const listed = (await (await fetch(`${production.origin}/api/raffles`, { headers: { Cookie: cookie } })).json()) as { id: string; myTickets: number }[];
    expect(listed.find((r) => r.id === raffle.id)?.myTickets).toBe(1);
  });

  it("gzips answers for a client that takes gzip, and only for it", async () => {
    const user = await createTestUser({ coins: 10_000n });
    const cookie = await cookieFor(user.id);
    await Promise.all(Array.from({ length: 6 }, () => createTestRaffle()));
    const stable = (json: string) => json.replace(/"timeRemaining":\d+/g, '"timeRemaining":0');
    const zipped = await raw("/api/raffles", { Cookie: cookie, "Accept-Encoding": "gzip" });
    expect(zipped.status).toBe(200);
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers["vary"]).toMatch(/Accept-Encoding/i);
    const plain = await raw("/api/raffles", { Cookie: cookie });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(stable(gunzipSync(zipped.body).toString())).toBe(stable(plain.body.toString()));
    const refused = await raw("/api/raffles", { Cookie: cookie, "Accept-Encoding": "gzip;q=0, identity" });
    expect(refused.headers["content-encoding"]).toBeUndefined();
    const head = await raw("/api/raffles", { Cookie: cookie, "Accept-Encoding": "gzip" }, "HEAD");
    expect([head.status, head.body.length]).toEqual([200, 0]);
    const page = await raw("/rules", { "Accept-Encoding": "gzip" });
    expect(page.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(page.body).toString()).toContain("</html>");
  });

  it("sends a page whole once rendered: its length announced, its loader data inside", async () => {
    const user = await createTestUser({ coins: 10_000n });
    await createTestRaffle();
    for (const headers of [{}, { Cookie: await cookieFor(user.id) }] as Record<string, string>[]) {
      const page = await raw("/", headers);
      expect(page.status).toBe(200);
      expect(page.headers["transfer-encoding"]).toBeUndefined();
      expect(Number(page.headers["content-length"])).toBe(page.body.length);
      const html = page.body.toString();
      expect(html).toContain("</html>");
      // The loader data that hydration reads comes in the same body, to its end.
      expect(html).toContain("streamController.close()");
    }
  });

  it("gives an event stream's place back as soon as its client goes away", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    const open = (signal?: AbortSignal) => fetch(`${production.origin}/api/events`, { headers: { Cookie: cookie }, signal });
    // A session holds 4 streams (ADR 025).
    const clients = Array.from({ length: 4 }, () => new AbortController());
    const streams = await Promise.all(clients.map((client) => open(client.signal)));
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200]);
    const fifth = await open();
    expect(fifth.status).toBe(429);
    await fifth.body?.cancel();
    for (const client of clients) client.abort();
    // Without the server hearing of it, every later attempt would stay 429 until the streams' maximum age.
    let again = await open();
    while (again.status === 429) {
      await again.body?.cancel();
      await new Promise((resolve) => setImmediate(resolve));
      again = await open();
    }
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });

  it("answers 400 to a request whose Host header makes no URL", async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(production.port, "127.0.0.1");
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (text += chunk));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
      socket.write("GET /rules HTTP/1.1\r\nHost: bad host\r\nConnection: close\r\n\r\n");
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain("Malformed request URL or Host header");
  });
});

import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { db } from "~/models/db.server";
import { loader as eventsLoader } from "~/routes/api.events";
import { STREAMS_PER_SESSION, subscribe, TooManyStreams, type GameEvent } from "~/infra/events.server";
import { call, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";

/** Caps on live event streams (ADR 025): per session at the route, per process in the hub. */
describe("live event stream caps", () => {
  it("gives one session 4 of 12 streams opened at once, 429 with Retry-After for the rest, and a place back when one closes", async () => {
    const player = await createTestUser();
    const cookie = await sessionCookie(player.id);
    const responses = await Promise.all(Array.from({ length: 12 }, () => call("/api/events", { cookie })));
    const open = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(open).toHaveLength(STREAMS_PER_SESSION);
    expect(refused).toHaveLength(12 - STREAMS_PER_SESSION);
    for (const response of refused) {
      expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect(await response.json()).toEqual({ message: "Too many live update streams are open for this session. Close a tab and try again." });
    }
    // Another session is not held back by this one.
    const other = await call("/api/events", { cookie: await sessionCookie((await createTestUser()).id) });
    expect(other.status).toBe(200);
    await other.body!.cancel();
    // Closing a stream gives its place back.
    await open[0]!.body!.cancel();
    const reopened = await call("/api/events", { cookie });
    expect(reopened.status).toBe(200);
    expect((await call("/api/events", { cookie })).status).toBe(429);
    await Promise.all([reopened, ...open.slice(1)].map((r) => r.body!.cancel()));
  });

  it("gives a stream's place back when the server says its client went away, even if the request's own signal never does", async () => {
    const cookie = await sessionCookie((await createTestUser()).id);
    // A request whose signal never aborts: the server's `clientGone` is all the route hears.
    const open = async () => {
      const gone = new AbortController();
      const request = new Request("http://localhost/api/events", { headers: { Cookie: cookie } });
      const context = { cspNonce: "", requestId: "test", clientIp: "127.0.0.1", clientGone: gone.signal };
      const response = await eventsLoader({ request, params: {}, context });
      return { response, gone };
    };
    const streams = await Promise.all(Array.from({ length: STREAMS_PER_SESSION }, open));
    expect(streams.map((s) => s.response.status)).toEqual(Array(STREAMS_PER_SESSION).fill(200));
    expect((await open()).response.status).toBe(429);
    streams[0]!.gone.abort();
    const reopened = await open();
    expect(reopened.response.status).toBe(200);
    for (const { gone } of [reopened, ...streams.slice(1)]) gone.abort();
  });

  it("serves at most the process's cap of streams subscribed at once", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        subscribe(
          () => {},
          () => {},
          { session: `s${i}`, maxStreams: 3 },
        ),
      ),
    );
    const opened = results.filter((r) => r.status === "fulfilled");
    expect(opened).toHaveLength(3);
    for (const refused of results.filter((r) => r.status === "rejected")) {
      expect(refused.reason).toBeInstanceOf(TooManyStreams);
      expect((refused.reason as TooManyStreams).scope).toBe("process");
    }
    for (const each of opened) each.value();
    const again = await subscribe(
      () => {},
      () => {},
      { maxStreams: 3 },
    );
    again();
  });
});

describe("live events under a crowd's entries", () => {
  it("sends the pots heard together once per raffle, the latest figures, and before the draw that follows", async () => {
    const heard: GameEvent[] = [];
    const unsubscribe = await subscribe((event) => heard.push(event));
    const [a, b] = [randomUUID() as string, randomUUID() as string];
    const pot = (raffleId: string, currentPot: string, ticketCount: number) =>
      ({ type: "pot", raffleId, kind: "regular", currentPot, participantCount: 1, ticketCount }) as const;
    const drawn = { type: "drawn", raffleId: a, kind: "regular", outcome: "cancelled" } as const;
    const notify = (event: object) => db().$executeRaw`SELECT pg_notify('raffle_events', ${JSON.stringify(event)})`;
    try {
      // Four entries' pots committed together, then the draw of the first raffle.
      await db().$transaction([notify(pot(a, "0.05", 1)), notify(pot(a, "0.10", 2)), notify(pot(b, "0.05", 1)), notify(pot(a, "0.15", 3))]);
      await notify(drawn);
      await vi.waitFor(() => expect(heard.some((e) => e.type === "drawn" && e.raffleId === a)).toBe(true));
      const ours = heard.filter((e) => "raffleId" in e && [a, b].includes(e.raffleId));
      expect(ours).toEqual([pot(a, "0.15", 3), pot(b, "0.05", 1), drawn]);
    } finally {
      unsubscribe();
    }
  });
});

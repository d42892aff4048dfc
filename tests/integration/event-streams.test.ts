import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { db } from "~/models/db.server";
import { loader as eventsLoader } from "~/routes/api.events";
import { REPLAY_MARGIN_MS, STREAMS_PER_SESSION, subscribe, TooManyStreams, type GameEvent } from "~/infra/events.server";
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
    const notify = (event: object) => db().$executeRaw`SELECT announce('raffle_events', ${JSON.stringify(event)})`;
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

/** What a stream opened with `?since=` sends first: the events its page missed (ADR 104). */
describe("a stream that opens after its page's read", () => {
  const notify = (event: object) => db().$executeRaw`SELECT announce('raffle_events', ${JSON.stringify(event)})`;
  /** The stream's text up to the first event that matches `last`. */
  async function openedUntil(path: string, cookie: string, last: RegExp): Promise<string> {
    const stream = await call(path, { cookie });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!last.test(text)) text += decoder.decode((await reader.read()).value);
    await reader.cancel();
    return text;
  }

  it("is first sent the events heard since its page's read: each pot once, its player's notices only", async () => {
    const player = await createTestUser();
    const cookie = await sessionCookie(player.id);
    const heard: GameEvent[] = [];
    const keeper = await subscribe((event) => heard.push(event));
    // The clock stands still from here, and moves on by hand: what counts as heard before the read.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const [before, round, a] = [randomUUID() as string, randomUUID() as string, randomUUID() as string];
      const hears = (raffleId: string) => vi.waitFor(() => expect(heard.some((e) => "raffleId" in e && e.raffleId === raffleId)).toBe(true));
      await notify({ type: "round", raffleId: before, kind: "quick", tier: "old" });
      await hears(before);
      vi.setSystemTime(Date.now() + REPLAY_MARGIN_MS + 1);
      const readAt = Date.now();
      const pot = (currentPot: string, ticketCount: number) => ({ type: "pot", raffleId: a, kind: "quick", currentPot, participantCount: 1, ticketCount });
      await db().$transaction([notify(pot("0.05", 1)), notify(pot("0.10", 2))]);
      await notify({ type: "notice", userIds: [randomUUID()] });
      await notify({ type: "notice", userIds: [player.id] });
      await notify({ type: "round", raffleId: round, kind: "quick", tier: "new" });
      await hears(round);

      const text = await openedUntil(`/api/events?since=${readAt}`, cookie, new RegExp(`"raffleId":"${round}"`));
      expect(text).not.toContain(before);
      expect(text.match(new RegExp(`"raffleId":"${a}"`, "g"))).toHaveLength(1);
      expect(text).toContain(`event: pot\ndata: ${JSON.stringify(pot("0.10", 2))}\n`);
      expect(text.match(/event: notice\n/g)).toHaveLength(1);
    } finally {
      vi.useRealTimers();
      keeper();
    }
  });

  it("is told to read its data again when what it missed was not kept, and sent nothing old without `since`", async () => {
    const cookie = await sessionCookie((await createTestUser()).id);
    const keeper = await subscribe(() => {});
    try {
      expect(await openedUntil("/api/events?since=1", cookie, /event: notice\n/)).toMatch(/^retry: \d+\n\nevent: notice\n/);
      // Without `since` the stream starts with the next event: the round below is the first it sends.
      const stream = await call("/api/events", { cookie });
      const reader = stream.body!.getReader();
      const decoder = new TextDecoder();
      let text = "";
      for (; !text.includes("retry:"); text += decoder.decode((await reader.read()).value));
      const raffleId = randomUUID();
      await notify({ type: "round", raffleId, kind: "quick", tier: "next" });
      while (!text.includes(raffleId)) text += decoder.decode((await reader.read()).value);
      await reader.cancel();
      expect(text).toMatch(new RegExp(`^retry: \\d+\\n\\nevent: round\\ndata: \\{"type":"round","raffleId":"${raffleId}"`));
    } finally {
      keeper();
    }
  });

  it.each(["abc", "-5", "1e9", "1.5", "1234567890123456"])("refuses since=%s with 400 and a message", async (since) => {
    const response = await call(`/api/events?since=${since}`, { cookie: await sessionCookie((await createTestUser()).id) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: "since must be a time in milliseconds since 1970." });
  });
});

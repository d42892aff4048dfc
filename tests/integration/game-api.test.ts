import { execFileSync } from "node:child_process";
import { decode } from "turbo-stream";
import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalance } from "~/models/money/ledger.server";
import { drawDueRaffles } from "~/services/raffles/raffles.server";
import { call, cookiesFrom, pageText, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";

async function player(coins = 1000n) {
  const user = await createTestUser({ coins });
  return { ...user, cookie: await sessionCookie(user.id) };
}

/** A single-fetch action's answer (turbo-stream) as the browser's Remix reads it: its data. */
async function decodeData(response: Response): Promise<unknown> {
  const decoded = await decode(response.body!);
  await decoded.done;
  return (decoded.value as { data?: unknown }).data;
}

const enter = (raffleId: string, cookie: string, kind = "raffles") => call(`/api/${kind}/${raffleId}/enter`, { method: "POST", cookie, json: {} });

describe("the game API", () => {
  it("lists raffles in the spec's shape with the player's tickets", async () => {
    const p = await player();
    const raffle = await createTestRaffle({ entryPrice: 25n, tier: "low" });
    expect((await enter(raffle.id, p.cookie)).status).toBe(200);
    const list = (await (await call("/api/raffles", { cookie: p.cookie })).json()) as Record<string, unknown>[];
    expect(list.find((r) => r.id === raffle.id)).toMatchObject({
      tier: "low",
      entryPrice: "0.25",
      currentPot: "0.25",
      participantCount: 1,
      status: "active",
      myTickets: 1,
    });
  });

  it("answers a bodiless POST (as the spec's client sends it) with JSON and a real status, and a form post with JSON too", async () => {
    const p = await player(5n);
    const raffle = await createTestRaffle({ entryPrice: 5n });
    // No body, no Accept: the spec's fetch. A refusal must not look like a success.
    const first = await call(`/api/raffles/${raffle.id}/enter`, { method: "POST", cookie: p.cookie });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ success: true, tickets: [0] });
    const refused = await call(`/api/raffles/${raffle.id}/enter`, { method: "POST", cookie: p.cookie, headers: { Accept: "*/*" } });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ message: "Insufficient Coins" });
    const spinner = await player(0n);
    const spin = await call("/api/daily-spin", { method: "POST", cookie: spinner.cookie });
    expect(spin.status).toBe(200);
    expect(spin.headers.get("Content-Type")).toMatch(/^application\/json/);
    // The API answers JSON whatever the request asks for (ADR 040): a form that asks for HTML too.
    const form = await call(`/api/raffles/${raffle.id}/enter`, { method: "POST", cookie: p.cookie, form: {}, headers: { Accept: "text/html" } });
    expect(form.status).toBe(422);
    expect(await form.json()).toEqual({ message: "Insufficient Coins" });
    expect(await userBalance(p.id)).toBe(0n);
  });

  it("shows bronze as the tier in the settings when no membership is active, as everywhere else", async () => {
    const lapsed = await createTestUser({ vipTier: "gold", vipExpiry: new Date(Date.now() - 1000) });
    const page = await pageText(await call("/settings", { cookie: await sessionCookie(lapsed.id) }));
    expect(page).toContain(`${lapsed.email} · VIP bronze`);
    const member = await createTestUser({ vipTier: "gold", vipExpiry: new Date(Date.now() + 86_400_000) });
    expect(await pageText(await call("/settings", { cookie: await sessionCookie(member.id) }))).toContain(`${member.email} · VIP gold`);
  });

  it("enters, answering with the new balance", async () => {
    const p = await player(100n);
    const raffle = await createTestRaffle({ entryPrice: 5n });
    const response = await enter(raffle.id, p.cookie);
    expect(await response.json()).toEqual({
      success: true,
      raffleId: raffle.id,
      tier: "micro",
      tickets: [0],
      cost: "0.05",
      coinBalance: 95,
    });
  });

  it("answers each failure with its status and message, and changes nothing", async () => {
    const p = await player(10n);
    const balanceBefore = await userBalance(p.id);
    const expensive = await createTestRaffle({ entryPrice: 500n });
    const quick = await createTestRaffle({ kind: "quick", tier: "bolt", entryPrice: 5n });
    const ended = await createTestRaffle({ endsAt: new Date(Date.now() + 50), startsAt: new Date(Date.now() - 1000) });
    await expect.poll(() => Date.now() > ended.endsAt.getTime()).toBe(true);

    const cases: [Promise<Response>, number, string][] = [
      [enter("not-a-uuid", p.cookie), 400, "Malformed id"],
      [enter("00000000-0000-4000-8000-000000000000", p.cookie), 404, "Raffle not found"],
      [enter(quick.id, p.cookie), 404, "Raffle not found"],
      [enter(ended.id, p.cookie), 409, "This raffle is closed for entries"],
      [enter(expensive.id, p.cookie), 422, "Insufficient Coins"],
    ];
    for (const [pending, status, message] of cases) {
      const response = await pending;
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual({ message });
    }
    expect(await userBalance(p.id)).toBe(balanceBefore);
    expect(await db().entry.count({ where: { userId: p.id } })).toBe(0);
  });

  it("checks the entry's session in the entry's own transaction: signed out, suspended, not signed up", async () => {
    const raffle = await createTestRaffle();
    const signedOut = await player();
    await db().session.deleteMany({ where: { userId: signedOut.id } });
    const suspended = await player();
    await db().user.update({ where: { id: suspended.id }, data: { suspendedAt: new Date() } });
    const expired = await player();
    await db().session.updateMany({ where: { userId: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const unfinished = await player();
    await db().user.update({ where: { id: unfinished.id }, data: { termsAcceptedAt: null } });
    const cases: [typeof signedOut, number, string][] = [
      [signedOut, 401, "Unauthorized"],
      [suspended, 401, "Unauthorized"],
      [expired, 401, "Unauthorized"],
      [unfinished, 403, "Please finish signing up first"],
    ];
    for (const [p, status, message] of cases) {
      const response = await enter(raffle.id, p.cookie);
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual({ message });
      expect(await userBalance(p.id)).toBe(1000n);
    }
    expect(await db().entry.count({ where: { raffleId: raffle.id } })).toBe(0);
    expect((await enter(raffle.id, "__session=forged")).status).toBe(401);
  });

  it("notes the session's play on an entry, as any signed-in request does (a new stretch after a long pause)", async () => {
    const p = await player();
    const raffle = await createTestRaffle();
    const longAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await db().session.updateMany({ where: { userId: p.id }, data: { playSeenAt: longAgo, playStartedAt: longAgo, realityCheckAt: longAgo } });
    const before = Date.now();
    expect((await enter(raffle.id, p.cookie)).status).toBe(200);
    const session = await db().session.findFirstOrThrow({ where: { userId: p.id } });
    expect(session.playSeenAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(session.playStartedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(session.realityCheckAt).toBeNull();
  });

  it("answers the quick endpoint for quick raffles only", async () => {
    const p = await player();
    const quick = await createTestRaffle({ kind: "quick", tier: "bolt", entryPrice: 10n });
    const response = await enter(quick.id, p.cookie, "quick-raffles");
    expect(response.status).toBe(200);
    const listed = (await (await call("/api/quick-raffles", { cookie: p.cookie })).json()) as { id: string }[];
    expect(listed.map((r) => r.id)).toContain(quick.id);
  });

  it("limits a player to 10 entries a second: 429 with Retry-After, and no ledger effect", async () => {
    const p = await player(10_000n);
    const raffle = await createTestRaffle({ maxTicketsPerPlayer: 100 });
    const responses = await Promise.all(Array.from({ length: 15 }, () => enter(raffle.id, p.cookie)));
    const limited = responses.filter((r) => r.status === 429);
    const ok = responses.filter((r) => r.status === 200);
    expect(limited.length + ok.length).toBe(15);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(limited[0]!.headers.get("Retry-After")).toBeTruthy();
    expect(await db().entry.count({ where: { userId: p.id } })).toBe(ok.length);
    expect(await userBalance(p.id)).toBe(10_000n - 5n * BigInt(ok.length));
  });

  it("answers the card's form, with or without JavaScript, with a redirect and the spec's toast", async () => {
    const p = await player();
    const raffle = await createTestRaffle({ tier: "medium", entryPrice: 100n });
    const response = await call(`/raffles/${raffle.id}/enter`, {
      method: "POST",
      cookie: p.cookie,
      form: {},
      headers: { Accept: "text/html", Referer: "http://localhost/" },
    });
    expect(response.status).toBe(302);
    const page = await (await call("/", { cookie: `${p.cookie}; ${cookiesFrom(response)}` })).text();
    expect(page).toContain("Success!");
    expect(page).toContain("Successfully entered medium raffle!");

    const broke = await player(0n);
    const refused = await call(`/raffles/${raffle.id}/enter`, {
      method: "POST",
      cookie: broke.cookie,
      form: {},
      headers: { Accept: "text/html", Referer: "http://localhost/" },
    });
    const refusedPage = await (await call("/", { cookie: `${broke.cookie}; ${cookiesFrom(refused)}` })).text();
    expect(refusedPage).toContain("Entry Failed");
    expect(refusedPage).toContain("Insufficient Coins");
  });

  it("answers a hydrated card's entry with its data (tickets, coins, toast) and no toast cookie; a refusal as the plain form", async () => {
    const p = await player();
    const raffle = await createTestRaffle({ tier: "medium", entryPrice: 100n });
    const asCard = (cookie: string) =>
      call(`/raffles/${raffle.id}/enter.data`, { method: "POST", cookie, form: { answer: "card" }, headers: { Referer: "http://localhost/" } });
    for (const tickets of [1, 2]) {
      const response = await asCard(p.cookie);
      expect(response.status).toBe(200);
      expect(response.headers.getSetCookie().filter((cookie) => cookie.startsWith("toast"))).toEqual([]);
      const answer = await decodeData(response);
      expect(answer).toEqual({
        entered: { raffleId: raffle.id, myTickets: tickets },
        balances: { coinBalance: 1000 - 100 * tickets, cashBalance: 0, bonusBalance: 1000 - 100 * tickets },
        toast: { type: "success", title: "Success!", description: "Successfully entered medium raffle!" },
      });
    }
    expect(await db().entry.count({ where: { raffleId: raffle.id, userId: p.id } })).toBe(2);

    // Refused: the same redirect and toast as the plain form, so that the page loads what changed.
    const broke = await player(0n);
    const refused = await asCard(broke.cookie);
    expect(refused.status).toBe(202);
    expect(cookiesFrom(refused)).toMatch(/toast/);
    expect(await db().entry.count({ where: { userId: broke.id } })).toBe(0);
  });

  it("answers the pages' forms one way whatever they ask for, and a signed-out player goes to sign-in with the spec's toast", async () => {
    const p = await player();
    const raffle = await createTestRaffle({ tier: "medium", entryPrice: 100n });
    // A fetcher asks for anything (ADR 040): the answer is the same redirect back to the page the form was on.
    const entered = await call(`/raffles/${raffle.id}/enter`, {
      method: "POST",
      cookie: p.cookie,
      form: {},
      headers: { Accept: "*/*", Referer: "http://localhost/quick?x=1" },
    });
    expect(entered.status).toBe(302);
    expect(entered.headers.get("Location")).toBe("/quick?x=1");
    // A fetcher that follows it replaces the history entry (Back stays where it was).
    expect(entered.headers.get("X-Remix-Replace")).toBe("true");

    const spun = await call("/daily-spin", { method: "POST", cookie: p.cookie, form: {}, headers: { Accept: "application/json" } });
    expect(spun.headers.get("Location")).toBe("/");
    expect(await pageText(await call("/", { cookie: `${p.cookie}; ${cookiesFrom(spun)}` }))).toMatch(/Congratulations![\s\S]*You won \d+ coins!/);
    const claimed = await call("/vip/claim-daily-bonus", { method: "POST", cookie: p.cookie, form: {}, headers: { Accept: "application/json" } });
    expect(claimed.headers.get("Location")).toBe("/vip");
    const vipPage = await pageText(await call("/vip", { cookie: `${p.cookie}; ${cookiesFrom(claimed)}` }));
    expect(vipPage).toContain("Claim Failed");

    const signedOut = await call(`/raffles/${raffle.id}/enter`, { method: "POST", form: {}, headers: { Referer: "http://localhost/quick" } });
    expect(signedOut.headers.get("Location")).toBe("/api/login?returnTo=%2Fquick");
    const login = await pageText(await call("/api/login", { cookie: cookiesFrom(signedOut) }));
    expect(login).toContain("Unauthorized");
    expect(login).toContain("You are logged out. Logging in again...");
  });

  it("spins once a day and refuses the VIP bonus without VIP", async () => {
    const p = await player(0n);
    const spin = await call("/api/daily-spin", { method: "POST", cookie: p.cookie, json: {} });
    const { reward } = (await spin.json()) as { reward: number };
    expect([5, 10, 25, 50]).toContain(reward);
    const again = await call("/api/daily-spin", { method: "POST", cookie: p.cookie, json: {} });
    expect(again.status).toBe(409);
    const status = (await (await call("/api/daily-spin/status", { cookie: p.cookie })).json()) as { canSpin: boolean };
    expect(status.canSpin).toBe(false);
    const claim = await call("/api/vip/claim-daily-bonus", { method: "POST", cookie: p.cookie, json: {} });
    expect(claim.status).toBe(403);
    expect(await userBalance(p.id)).toBe(BigInt(reward));
  });

  it("publishes a verifiable draw that the standalone verifier recomputes from the public JSON alone", async () => {
    const [a, b] = [await player(), await player()];
    const raffle = await createTestRaffle({ entryPrice: 10n, maxTicketsPerPlayer: 10 });
    for (const p of [a, b, a, b, a]) await enter(raffle.id, p.cookie);

    const before = (await (await call(`/api/fair/${raffle.id}`)).json()) as Record<string, unknown>;
    expect(before).toMatchObject({ revealed: false, ticketCount: 5 });
    expect(before).not.toHaveProperty("seed");
    expect(JSON.stringify(before)).not.toMatch(/"seed":/);

    await drawDueRaffles(new Date(raffle.endsAt.getTime() + 1));
    const publicDraw = (await (await call(`/api/fair/${raffle.id}`)).json()) as Record<string, unknown>;
    expect(publicDraw).toMatchObject({ revealed: true, seedMatchesCommitment: true, status: "completed" });
    expect(publicDraw.recomputedWinningTicket).toBe(publicDraw.winningTicket);
    const verifier = JSON.parse(execFileSync(process.execPath, ["scripts/verify-draw.mjs"], { input: JSON.stringify(publicDraw) }).toString());
    expect(verifier).toMatchObject({ winningTicket: publicDraw.winningTicket, merkleRootMatches: true, winningTicketMatches: true });

    const mine = (await (await call(`/api/fair/${raffle.id}`, { cookie: a.cookie })).json()) as { myTickets: { verified: boolean }[] };
    expect(mine.myTickets).toHaveLength(3);
    expect(mine.myTickets.every((t) => t.verified)).toBe(true);
    const page = await (await call(`/fair/${raffle.id}`)).text();
    expect(page).toContain(publicDraw.seed as string);
  });

  it("streams pot changes and draws as Server-Sent Events, through the announcements", async () => {
    const p = await player();
    const q = await player();
    const raffle = await createTestRaffle({ entryPrice: 10n });
    const stream = await call("/api/events", { cookie: p.cookie });
    expect(stream.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const readUntil = async (needle: string | RegExp) => {
      while (!(typeof needle === "string" ? text.includes(needle) : needle.test(text))) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${needle}`);
        text += decoder.decode(value);
      }
    };
    await readUntil("retry:");
    await enter(raffle.id, p.cookie);
    await readUntil(`"raffleId":"${raffle.id}"`);
    expect(text).toContain("event: pot");
    expect(text).toContain('"currentPot":"0.10"');
    await enter(raffle.id, q.cookie);
    const drawnAt = new Date(raffle.endsAt.getTime() + 1);
    await drawDueRaffles(drawnAt);
    const drawn = /event: drawn\ndata: (.*)\n/;
    await readUntil(drawn);
    await reader.cancel();
    // What the card shows comes with the draw (ADR 095): pages need not read theirs again.
    const told = JSON.parse(drawn.exec(text)![1]!) as Record<string, unknown>;
    const row = await db().raffle.findUniqueOrThrow({
      where: { id: raffle.id },
      select: { winningTicket: true, prize: true, winner: { select: { username: true } } },
    });
    expect(told).toEqual({
      type: "drawn",
      raffleId: raffle.id,
      kind: "regular",
      outcome: "completed",
      drawnAt: drawnAt.toISOString(),
      winner: row.winner!.username,
      prize: "0.10",
      winningTicket: row.winningTicket,
    });
  });

  it("streams a new round with what its card shows, so that open pages add it without reading theirs again", async () => {
    const p = await player();
    const stream = await call("/api/events", { cookie: p.cookie });
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (; !text.includes("retry:"); text += decoder.decode((await reader.read()).value));
    const startsAt = new Date(Date.now() + 2_000);
    const raffle = await createTestRaffle({
      kind: "quick",
      tier: "bolt",
      entryPrice: 10n,
      startsAt,
      endsAt: new Date(startsAt.getTime() + 30_000),
      vipOnly: true,
    });
    const told = new RegExp(`event: round\ndata: (\\{[^\\n]*"raffleId":"${raffle.id}"[^\\n]*)\\n`);
    while (!told.test(text)) text += decoder.decode((await reader.read()).value);
    await reader.cancel();
    expect(JSON.parse(told.exec(text)![1]!)).toEqual({
      type: "round",
      raffleId: raffle.id,
      kind: "quick",
      tier: "bolt",
      entryPrice: "0.10",
      startTime: startsAt.toISOString(),
      endTime: raffle.endsAt.toISOString(),
      vipOnly: true,
    });
  });
});

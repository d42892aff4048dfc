import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { DOMParser } from "@xmldom/xmldom";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { db } from "~/models/db.server";
import { BeaconSource, setBeacon } from "~/infra/beacon.server";
import { getFairDraw } from "~/services/fairness/fair.server";
import { merkleRoot, winningTicket } from "~/services/fairness/draw-math.server";
import { completeRaffle } from "~/services/back-office/admin.server";
import { drawDueRaffles, enterRaffle } from "~/services/raffles/raffles.server";
import { startScheduler } from "~/services/raffles/scheduler.server";
import { roundAfter, roundTime, verifyDraw } from "~/shared/draw-verifier.mjs";
import { call, gatedAdmin, pageText, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";
import { startLocalBeacon, type LocalBeacon } from "../support/local-beacon";
import { raffleProblems } from "../support/money-invariants";
import { scaled } from "../support/timeouts";

/**
 * Issue 34, item 1 (ADR 078): an admin's early completion closes the raffle at once and
 * draws it with the first beacon round after the close, never from the seed alone.
 */

const FAIR = "urn:raffle-rush:fair:1";
const beacons: LocalBeacon[] = [];
async function joinedToLocalBeacon(): Promise<LocalBeacon> {
  const beacon = await startLocalBeacon();
  beacons.push(beacon);
  setBeacon(new BeaconSource({ urls: beacon.urls, chain: beacon.chain, deadlineMs: scaled(5_000), hedgeMs: 200, requestTimeoutMs: 1_000, retryMs: 50 }));
  return beacon;
}
afterEach(() => setBeacon(undefined));
afterAll(async () => {
  await Promise.all(beacons.map((beacon) => beacon.close()));
});

/** The raffle's tickets in order, with the Merkle root the draw computes over them. */
async function ticketList(raffleId: string) {
  const tickets = await db().entry.findMany({ where: { raffleId }, orderBy: { position: "asc" }, select: { id: true, position: true, userId: true } });
  const root = merkleRoot(
    raffleId,
    tickets.map((t) => ({ position: t.position, ticketId: t.id })),
  );
  return { tickets, root };
}

/** This file's site on a real port for scripts/watch-draws.mjs: each request is the app's answer, its links under this address. */
async function servedSite(): Promise<{ base: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    call(req.url ?? "/", { origin: base }).then(
      async (answer) => {
        res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "text/plain" }).end(Buffer.from(await answer.arrayBuffer()));
      },
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Runs the watcher once over the feed: its exit code and what it printed. */
function watchOnce(base: string, relay: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["scripts/watch-draws.mjs", base, "--relays", relay, "--margin", "3600"], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (out += chunk));
    child.on("exit", (code) => resolve({ code, out }));
  });
}

/** The feed's first page: each entry's event and facts (the fair: element's attributes). */
async function feedFacts(): Promise<{ event: string; facts: Record<string, string> }[]> {
  const feed = new DOMParser().parseFromString(await (await call("/fair/feed.xml")).text(), "application/xml").documentElement!;
  return Array.from(feed.getElementsByTagNameNS(FAIR, "*")).map((facts) => ({
    event: facts.localName ?? "",
    facts: Object.fromEntries(Array.from(facts.attributes).map((a) => [a.name, a.value])),
  }));
}

async function closedEarly(raffleId: string) {
  const admin = await gatedAdmin();
  const response = await call(`/api/admin/raffles/${raffleId}/complete`, { method: "POST", cookie: admin.cookie, json: {} });
  expect(response.status).toBe(200);
  return (await response.json()) as { outcome: string; closedAt: string; beaconRound: number };
}

describe("completing a raffle early with the beacon", () => {
  it("defeats the steering attack: completed the moment the seed predicts the colluder, the winner follows the next round", async () => {
    const beacon = await joinedToLocalBeacon();
    const raffle = await createTestRaffle({ maxTicketsPerPlayer: 60 });
    for (const player of await Promise.all([1, 2, 3].map(() => createTestUser({ coins: 1_000n })))) {
      await enterRaffle({ userId: player.id, raffleId: raffle.id });
    }
    // The insider reads the seed and the colluder buys one ticket at a time until the seed alone names them.
    const { seed } = await db().raffle.findUniqueOrThrow({ where: { id: raffle.id }, select: { seed: true } });
    const colluder = await createTestUser({ coins: 1_000n });
    let predicted: number | undefined;
    for (let i = 0; i < 60 && predicted === undefined; i++) {
      await enterRaffle({ userId: colluder.id, raffleId: raffle.id });
      const { tickets, root } = await ticketList(raffle.id);
      const ticket = winningTicket(seed, raffle.id, root, tickets.length, null);
      if (tickets[ticket]!.userId === colluder.id) predicted = ticket;
    }
    expect(predicted).toBeDefined();

    const closed = await closedEarly(raffle.id);
    const closedAt = Date.parse(closed.closedAt);
    // The round is the first after the close: not one already published, whatever the seed says.
    expect(closed).toMatchObject({ outcome: "closed", beaconRound: roundAfter(beacon.chain, closedAt) });
    expect(roundTime(beacon.chain, closed.beaconRound)).toBeGreaterThan(closedAt);
    const stored = await db().raffle.findUniqueOrThrow({ where: { id: raffle.id } });
    expect(stored).toMatchObject({ status: "active", closedAt: new Date(closedAt), endsAt: new Date(closedAt), beaconRound: BigInt(closed.beaconRound) });
    const audit = await db().auditEvent.findFirstOrThrow({ where: { target: `raffle:${raffle.id}`, action: "raffle.complete_early" } });
    expect(audit.details).toMatchObject({ after: { status: "closed", beaconRound: closed.beaconRound } });

    // No entry after the close.
    await expect(enterRaffle({ userId: colluder.id, raffleId: raffle.id })).rejects.toMatchObject({ code: "raffle_closed" });
    // Nor one that set out before the close and reached the raffle's lock after it.
    await expect(enterRaffle({ userId: colluder.id, raffleId: raffle.id, now: new Date(closedAt - 1) })).rejects.toMatchObject({ code: "raffle_closed" });
    const listed = ((await (await call("/api/raffles", { cookie: await sessionCookie(colluder.id) })).json()) as { id: string; closedEarly?: unknown }[]).find(
      (r) => r.id === raffle.id,
    );
    expect(listed?.closedEarly).toEqual({ beaconRound: closed.beaconRound });
    // The raffle's card in the lobby says so too.
    const lobby = await pageText(await call("/", { cookie: await sessionCookie(colluder.id) }));
    expect(lobby).toContain(`Closed early: no more entries; drawn with beacon round ${closed.beaconRound}`);
    const page = await pageText(await call(`/fair/${raffle.id}`));
    expect(page).toContain(`Closed early by an admin: no more entries; waiting for drand round ${closed.beaconRound}, the first after the close`);
    expect(await (await call(`/api/fair/${raffle.id}`)).json()).toMatchObject({
      status: "active",
      endTime: closed.closedAt,
      closedEarly: {
        closedAt: closed.closedAt,
        scheduledEndTime: raffle.endsAt.toISOString(),
        scheduledBeaconRound: roundAfter(beacon.chain, raffle.endsAt.getTime()),
      },
      beacon: { round: closed.beaconRound },
    });

    // The feed keeps the commitment as made and adds the close, with its round.
    const events = (await feedFacts()).filter((e) => e.facts.raffle === raffle.id);
    expect(events.map((e) => e.event)).toEqual(["closed", "commitment"]);
    expect(events[0]!.facts).toMatchObject({ closedAt: closed.closedAt, endsAt: closed.closedAt, beaconRound: String(closed.beaconRound) });
    expect(events[1]!.facts).toMatchObject({ endsAt: raffle.endsAt.toISOString(), beaconRound: String(roundAfter(beacon.chain, raffle.endsAt.getTime())) });
    expect(events[1]!.facts.closedAt).toBeUndefined();

    const drawn = (await drawDueRaffles(new Date(), { waitForBeacons: true })).find((o) => o.raffleId === raffle.id);
    const { tickets, root } = await ticketList(raffle.id);
    const fromRound = winningTicket(seed, raffle.id, root, tickets.length, beacon.randomness(closed.beaconRound));
    expect(drawn).toMatchObject({ outcome: "completed", winningTicket: fromRound, winnerId: tickets[fromRound]!.userId });
    const published = JSON.parse(JSON.stringify(await getFairDraw(raffle.id)));
    expect(published).toMatchObject({
      closedEarly: { closedAt: closed.closedAt },
      beacon: { round: closed.beaconRound, signature: beacon.signature(closed.beaconRound) },
    });
    expect(await verifyDraw(published)).toMatchObject({ verified: true, winningTicket: fromRound });
    expect(await pageText(await call(`/fair/${raffle.id}`))).toContain("Drawn early: an admin completed it before its scheduled end");
    expect(await raffleProblems([raffle.id])).toEqual([]);

    // A watcher that saw the first commitment takes the close in its place and finds the draw verified.
    const site = await servedSite();
    try {
      const watched = await watchOnce(site.base, beacon.urls[0]!);
      expect(watched.out).toContain(`verified ${raffle.id} ticket ${fromRound} of ${tickets.length}, beacon round ${closed.beaconRound}`);
      expect(watched.out).not.toContain("ALARM");
      expect(watched.code).toBe(0);
    } finally {
      await site.close();
    }
  });

  it("takes the entries racing the close or refuses them cleanly: the ticket list at the draw is exactly the entries accepted", async () => {
    await joinedToLocalBeacon();
    const raffle = await createTestRaffle({ maxTicketsPerPlayer: 10_000 });
    const players = await Promise.all(Array.from({ length: 12 }, () => createTestUser({ coins: 1_000_000n })));
    const accepted: { userId: string; position: number }[] = [];
    const refused: unknown[] = [];
    // Each player enters again and again until refused: some land before the close, each worker's last one after it.
    const workers = players.map(async (player) => {
      for (;;) {
        try {
          const entry = await enterRaffle({ userId: player.id, raffleId: raffle.id });
          accepted.push(...entry.positions.map((position) => ({ userId: player.id, position })));
        } catch (error) {
          refused.push(error);
          return;
        }
      }
    });
    await vi.waitFor(() => expect(accepted.length).toBeGreaterThanOrEqual(24), { timeout: scaled(10_000), interval: 20 });
    const closed = await closedEarly(raffle.id);
    await Promise.all(workers);
    expect(refused).toHaveLength(players.length);
    for (const error of refused) expect(error).toMatchObject({ code: "raffle_closed" });

    const drawn = (await drawDueRaffles(new Date(), { waitForBeacons: true })).find((o) => o.raffleId === raffle.id);
    expect(drawn).toMatchObject({ outcome: "completed" });
    const draw = await getFairDraw(raffle.id);
    expect(draw).toMatchObject({ revealed: true, beacon: { round: closed.beaconRound }, ticketCount: accepted.length });
    const { tickets } = await ticketList(raffle.id);
    const byPosition = (a: { position: number }, b: { position: number }) => a.position - b.position;
    expect(tickets.map((t) => ({ userId: t.userId, position: t.position }))).toEqual([...accepted].sort(byPosition));
    expect(await raffleProblems([raffle.id])).toEqual([]);
  });

  it("is drawn by the scheduler's draw loops once its round is out, exactly once with two instances running", async () => {
    const beacon = await joinedToLocalBeacon();
    const raffles = await Promise.all([1, 2, 3].map(() => createTestRaffle()));
    const players = await Promise.all([1, 2].map(() => createTestUser({ coins: 1_000n })));
    for (const raffle of raffles) for (const player of players) await enterRaffle({ userId: player.id, raffleId: raffle.id });
    const rounds = new Map<string, number>();
    for (const raffle of raffles) rounds.set(raffle.id, (await closedEarly(raffle.id)).beaconRound);
    const instances = [startScheduler(), startScheduler()];
    try {
      await vi.waitFor(
        async () => expect(await db().raffle.count({ where: { id: { in: raffles.map((r) => r.id) }, status: "completed" } })).toBe(raffles.length),
        { timeout: scaled(15_000), interval: 100 },
      );
    } finally {
      await Promise.all(instances.map((instance) => instance.stop()));
    }
    for (const raffle of raffles) {
      expect(await db().ledgerTransaction.count({ where: { raffleId: raffle.id, kind: "prize" } })).toBe(1);
      expect(await db().auditEvent.count({ where: { target: `raffle:${raffle.id}`, action: "raffle.draw" } })).toBe(1);
      const stored = await db().raffle.findUniqueOrThrow({ where: { id: raffle.id }, select: { beaconSignature: true } });
      expect(stored.beaconSignature).toBe(beacon.signature(rounds.get(raffle.id)!));
    }
    expect(await raffleProblems(raffles.map((r) => r.id))).toEqual([]);
  });

  it("refuses a second completion of a raffle already closed, and leaves its round as it was", async () => {
    await joinedToLocalBeacon();
    const raffle = await createTestRaffle();
    const closed = await closedEarly(raffle.id);
    const admin = await createTestUser({ isAdmin: true });
    await expect(completeRaffle(admin.id, raffle.id)).rejects.toMatchObject({ code: "raffle_closed" });
    expect((await db().raffle.findUniqueOrThrow({ where: { id: raffle.id } })).beaconRound).toBe(BigInt(closed.beaconRound));
    // The back office says what it waits for, and offers no second completion.
    const list = await pageText(await call("/admin/raffles", { cookie: (await gatedAdmin()).cookie }));
    expect(list).toContain(`closed early: waiting for beacon round ${closed.beaconRound}`);
    expect(list).not.toContain(`/admin/raffles/${raffle.id}/complete`);
  });
});

describe("a raffle closed early whose round cannot be had", () => {
  it("is cancelled and refunded at the round's deadline, and its page says why", async () => {
    const beacon = await startLocalBeacon({ modes: ["down"] });
    beacons.push(beacon);
    setBeacon(new BeaconSource({ urls: beacon.urls, chain: beacon.chain, deadlineMs: 500, requestTimeoutMs: 300, retryMs: 50 }));
    const raffle = await createTestRaffle();
    const players = await Promise.all([1, 2].map(() => createTestUser({ coins: 1_000n })));
    for (const player of players) await enterRaffle({ userId: player.id, raffleId: raffle.id });
    const closed = await closedEarly(raffle.id);
    const drawn = (await drawDueRaffles(new Date(), { waitForBeacons: true })).find((o) => o.raffleId === raffle.id);
    expect(drawn).toMatchObject({ outcome: "cancelled", reason: "beacon_unavailable" });
    const page = await pageText(await call(`/fair/${raffle.id}`));
    expect(page).toContain(`Cancelled early: beacon round ${closed.beaconRound} could not be fetched and verified`);
    expect(page).not.toContain("fewer than two players");
    expect(await raffleProblems([raffle.id])).toEqual([]);
  });
});

describe("completing early a raffle that has ended", () => {
  it("is refused: it waits for the round after its end, which may be out already, and keeps it", async () => {
    const beacon = await joinedToLocalBeacon();
    const endsAt = new Date(Date.now() - 5_000);
    const raffle = await createTestRaffle({ startsAt: new Date(endsAt.getTime() - 60_000), endsAt });
    const admin = await createTestUser({ isAdmin: true });
    await expect(completeRaffle(admin.id, raffle.id)).rejects.toMatchObject({ code: "raffle_closed", message: expect.stringContaining("has ended") });
    const stored = await db().raffle.findUniqueOrThrow({ where: { id: raffle.id } });
    expect(stored).toMatchObject({ status: "active", closedAt: null, endsAt, beaconRound: BigInt(roundAfter(beacon.chain, endsAt.getTime())) });
  });
});

describe("an open raffle's draw page", () => {
  it("invites no play, to a player on a break or anyone (PRODUCT.md: during a break no page invites play)", async () => {
    const raffle = await createTestRaffle();
    const player = await createTestUser({ coins: 1_000n });
    await db().user.update({ where: { id: player.id }, data: { excludedUntil: new Date(Date.now() + 86_400_000), exclusionKind: "break" } });
    const page = await pageText(await call(`/fair/${raffle.id}`, { cookie: await sessionCookie(player.id) }));
    expect(page).toContain("Open until its scheduled end; not drawn yet");
    expect(page).not.toMatch(/entries are being taken|enter now/i);
  });
});

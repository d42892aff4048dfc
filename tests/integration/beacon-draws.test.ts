import { execFileSync } from "node:child_process";
import { register } from "prom-client";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { db } from "~/models/db.server";
import { userBalance } from "~/models/money/ledger.server";
import { BeaconSource, setBeacon, type BeaconConfig } from "~/infra/beacon.server";
import { roundAfter, verifyDraw } from "~/shared/draw-verifier.mjs";
import { getFairDraw } from "~/services/fairness/fair.server";
import { merkleRoot, winningTicket } from "~/services/fairness/draw-math.server";
import { completeRaffleEarly } from "~/services/raffles/early-completion.server";
import { drawDueRaffles, enterRaffle } from "~/services/raffles/raffles.server";
import { startScheduler } from "~/services/raffles/scheduler.server";
import { createTestRaffle, createTestUser } from "../support/factories";
import { startLocalBeacon, type LocalBeacon, type RelayMode } from "../support/local-beacon";
import { raffleProblems } from "../support/money-invariants";
import { scaled } from "../support/timeouts";

/** Draws joined by a public beacon, against a local drand beacon (docs/decisions/033-draws-with-a-public-beacon.md). */

const beacons: LocalBeacon[] = [];
async function localBeacon(modes: RelayMode[]): Promise<LocalBeacon> {
  const beacon = await startLocalBeacon({ modes });
  beacons.push(beacon);
  return beacon;
}
afterEach(() => setBeacon(undefined));
afterAll(async () => {
  await Promise.all(beacons.map((beacon) => beacon.close()));
});

function source(beacon: LocalBeacon, overrides: Partial<BeaconConfig> = {}): BeaconSource {
  return new BeaconSource({ urls: beacon.urls, chain: beacon.chain, deadlineMs: 1_500, hedgeMs: 200, requestTimeoutMs: 1_000, retryMs: 50, ...overrides });
}

/**
 * Raffles committed to the process's beacon, entered by two players each, that ended a
 * moment ago: their round is at most one period away.
 */
async function endedRaffles(count: number) {
  const endsAt = new Date(Date.now() - 1);
  const startsAt = new Date(endsAt.getTime() - 60_000);
  const players = await Promise.all([createTestUser({ coins: 1_000n }), createTestUser({ coins: 1_000n })]);
  const raffles = [];
  for (let i = 0; i < count; i++) {
    const raffle = await createTestRaffle({ startsAt, endsAt, entryPrice: 10n });
    for (const [index, player] of players.entries()) {
      await enterRaffle({ userId: player.id, raffleId: raffle.id, tickets: index + 1, now: new Date(startsAt.getTime() + 1_000) });
    }
    raffles.push(raffle);
  }
  return { raffles, players, endsAt };
}

async function expectedWinner(raffleId: string, randomness: string) {
  const tickets = await db().entry.findMany({ where: { raffleId }, orderBy: { position: "asc" }, select: { id: true, position: true } });
  const root = merkleRoot(
    raffleId,
    tickets.map((t) => ({ position: t.position, ticketId: t.id })),
  );
  return winningTicket((await db().raffle.findUniqueOrThrow({ where: { id: raffleId } })).seed, raffleId, root, tickets.length, randomness);
}

function runVerifier(draw: unknown): { status: number; out: Record<string, unknown> } {
  try {
    return {
      status: 0,
      out: JSON.parse(execFileSync(process.execPath, ["scripts/verify-draw.mjs"], { input: JSON.stringify(draw), stdio: "pipe" }).toString()),
    };
  } catch (error) {
    const failed = error as { status: number; stdout: Buffer };
    return { status: failed.status, out: JSON.parse(failed.stdout.toString()) };
  }
}

/** The published draw of a raffle that is no longer active. */
async function revealed(raffleId: string) {
  const draw = await getFairDraw(raffleId);
  if (!draw?.revealed) throw new Error(`raffle ${raffleId} is not revealed`);
  return draw;
}

async function metric(name: string, labels: string): Promise<number> {
  const line = (await register.metrics()).split("\n").find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.split(" ").at(-1)) : 0;
}

describe("a raffle's commitment", () => {
  it("names the chain and the first round after the end when relays are configured, and says no beacon without them", async () => {
    const beacon = await localBeacon(["ok"]);
    setBeacon(source(beacon));
    const endsAt = new Date(Date.now() + 60_000);
    const committed = await createTestRaffle({ endsAt });
    const draw = (await getFairDraw(committed.id))!;
    expect(draw.beacon).toMatchObject({
      chainHash: beacon.chain.hash,
      publicKey: beacon.chain.publicKey,
      scheme: "bls-unchained-g1-rfc9380",
      periodSeconds: 1,
      genesisTime: beacon.chain.genesisTime,
      round: roundAfter(beacon.chain, endsAt.getTime()),
    });
    expect(Date.parse(draw.beacon!.roundTime)).toBeGreaterThan(endsAt.getTime());
    expect(Date.parse(draw.beacon!.roundTime) - endsAt.getTime()).toBeLessThanOrEqual(1_000);

    setBeacon(new BeaconSource({ urls: [], chain: beacon.chain, deadlineMs: 1_000 }));
    const plain = (await getFairDraw((await createTestRaffle({ endsAt })).id))!;
    expect(plain.beacon).toBeNull();
    expect(plain.algorithm).toContain("no beacon");
  });
});

describe("a draw with the beacon", () => {
  it("waits for the round without drawing (DRAWING), fetches it once for every raffle that shares it, and publishes a draw anyone can verify", async () => {
    const beacon = await localBeacon(["ok"]);
    setBeacon(source(beacon));
    const { raffles, endsAt } = await endedRaffles(5);
    const round = roundAfter(beacon.chain, endsAt.getTime());

    // The first pass starts the fetch and leaves the raffles: active past their end.
    expect(await drawDueRaffles(new Date())).toEqual([]);
    const waiting = (await getFairDraw(raffles[0]!.id))!;
    expect(waiting).toMatchObject({ status: "active", revealed: false, drawing: true });

    const outcomes = await drawDueRaffles(new Date(), { waitForBeacons: true });
    expect(outcomes.map((o) => o.outcome)).toEqual(Array(5).fill("completed"));
    expect(beacon.hits[0]).toBe(1);
    for (const raffle of raffles) {
      const stored = await db().raffle.findUniqueOrThrow({ where: { id: raffle.id } });
      expect(stored.beaconSignature).toBe(beacon.signature(round));
      expect(stored.winningTicket).toBe(await expectedWinner(raffle.id, beacon.randomness(round)));
    }
    expect(await raffleProblems(raffles.map((r) => r.id))).toEqual([]);

    const published = await revealed(raffles[0]!.id);
    expect(published.beacon).toMatchObject({ round, signature: beacon.signature(round), randomness: beacon.randomness(round) });
    const json = JSON.parse(JSON.stringify(published));
    expect(await verifyDraw(json)).toMatchObject({ verified: true, winningTicket: published.winningTicket });
    const verified = runVerifier(json);
    expect(verified.status).toBe(0);
    expect(verified.out).toMatchObject({
      beaconSignatureValid: true,
      beaconRoundIsFirstAfterEnd: true,
      winningTicketMatches: true,
      seedMatchesCommitment: true,
    });

    // A forged signature, or another round's, fails the verifier.
    const other = beacon.signature(round + 1);
    const forged = runVerifier({ ...json, beacon: { ...json.beacon, signature: other, randomness: beacon.randomness(round + 1) } });
    expect(forged.status).toBe(1);
    expect(forged.out.beaconSignatureValid).toBe(false);
  });

  it("is drawn by the scheduler as soon as its round is verified, not at the next pass", async () => {
    const beacon = await localBeacon(["ok"]);
    setBeacon(source(beacon));
    const { raffles } = await endedRaffles(1);
    // Passes 20 s apart: only the wake-up of a settled round can draw it sooner.
    const scheduler = startScheduler({ intervalMs: 20_000 });
    try {
      await vi.waitFor(
        async () => expect((await db().raffle.findUniqueOrThrow({ where: { id: raffles[0]!.id }, select: { status: true } })).status).toBe("completed"),
        { timeout: scaled(8_000), interval: 100 },
      );
    } finally {
      await scheduler.stop();
    }
  });

  it("refuses a forged signature and a wrong round from a relay, and takes the next relay's verified round", async () => {
    for (const bad of ["forged", "wrong_round"] as const) {
      const beacon = await localBeacon([bad, "ok"]);
      setBeacon(source(beacon, { hedgeMs: 5_000 }));
      const { raffles, endsAt } = await endedRaffles(1);
      const before = await metric("raffle_beacon_fetches_total", `result="${bad === "forged" ? "bad_signature" : "wrong_round"}"`);
      const [outcome] = await drawDueRaffles(new Date(), { waitForBeacons: true });
      expect(outcome).toMatchObject({ outcome: "completed" });
      expect(beacon.hits).toEqual([1, 1]);
      const round = roundAfter(beacon.chain, endsAt.getTime());
      expect((await db().raffle.findUniqueOrThrow({ where: { id: raffles[0]!.id } })).beaconSignature).toBe(beacon.signature(round));
      expect(await metric("raffle_beacon_fetches_total", `result="${bad === "forged" ? "bad_signature" : "wrong_round"}"`)).toBe(before + 1);
    }
  });

  it("falls over to the next relay when one does not answer, without waiting for its timeout", async () => {
    const beacon = await localBeacon(["hang", "ok"]);
    setBeacon(source(beacon, { hedgeMs: 200, requestTimeoutMs: 20_000 }));
    const { raffles } = await endedRaffles(1);
    const started = Date.now();
    const [outcome] = await drawDueRaffles(new Date(), { waitForBeacons: true });
    expect(outcome).toMatchObject({ raffleId: raffles[0]!.id, outcome: "completed" });
    expect(beacon.hits).toEqual([1, 1]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("cancels and refunds every ticket, with the reason on the draw and in the metrics, when no relay gives the round by its deadline", async () => {
    const beacon = await localBeacon(["down", "hang"]);
    setBeacon(source(beacon, { deadlineMs: 1_000, requestTimeoutMs: 300 }));
    const { raffles, players } = await endedRaffles(2);
    const before = await metric("raffle_raffles_cancelled_total", 'reason="beacon_unavailable"');
    const outcomes = await drawDueRaffles(new Date(), { waitForBeacons: true });
    expect(outcomes.map((o) => o.outcome === "cancelled" && o.reason)).toEqual(["beacon_unavailable", "beacon_unavailable"]);
    for (const player of players) expect(await userBalance(player.id)).toBe(1_000n);
    const draw = await revealed(raffles[0]!.id);
    expect(draw).toMatchObject({ status: "cancelled", winningTicket: null });
    expect(draw.cancelReason).toMatch(
      /^beacon round \d+ could not be fetched and verified within 1 s of its time \(relay 1: answered 503; relay 2: no answer within 300 ms\)$/,
    );
    expect(await metric("raffle_raffles_cancelled_total", 'reason="beacon_unavailable"')).toBe(before + 2);
    expect(await raffleProblems(raffles.map((r) => r.id))).toEqual([]);
  });

  it("never draws without the beacon its commitment names, even when the relays are gone from the configuration", async () => {
    const beacon = await localBeacon(["ok"]);
    setBeacon(source(beacon));
    const { raffles } = await endedRaffles(1);
    const [outcome] = await drawDueRaffles(new Date(), { waitForBeacons: true, source: new BeaconSource({ urls: [], chain: beacon.chain, deadlineMs: 500 }) });
    expect(outcome).toMatchObject({ raffleId: raffles[0]!.id, outcome: "cancelled", reason: "beacon_unavailable" });
    expect((await revealed(raffles[0]!.id)).cancelReason).toContain("no relay configured");
    // Nor is one completed early without the relays it names (with them, it closes: early-completion.test.ts).
    const committed = await createTestRaffle();
    setBeacon(new BeaconSource({ urls: [], chain: beacon.chain, deadlineMs: 500 }));
    await expect(completeRaffleEarly(committed.id, "admin")).rejects.toMatchObject({ code: "raffle_closed" });
  });

  it("with two instances drawing the same raffles at once, draws each exactly once", async () => {
    const beacon = await localBeacon(["ok"]);
    setBeacon(source(beacon));
    const { raffles } = await endedRaffles(6);
    const [a, b] = await Promise.all([
      drawDueRaffles(new Date(), { waitForBeacons: true, batchSize: 2, source: source(beacon) }),
      drawDueRaffles(new Date(), { waitForBeacons: true, batchSize: 2, source: source(beacon) }),
    ]);
    expect(a.length + b.length).toBe(6);
    expect(new Set([...a, ...b].map((o) => o.raffleId)).size).toBe(6);
    for (const raffle of raffles) {
      expect(await db().ledgerTransaction.count({ where: { raffleId: raffle.id, kind: "prize" } })).toBe(1);
      expect(await db().auditEvent.count({ where: { target: `raffle:${raffle.id}`, action: "raffle.draw" } })).toBe(1);
    }
  });

  it("after a crash between fetching the round and recording the draw, draws once, with the same round, on the next pass", async () => {
    const beacon = await localBeacon(["ok"]);
    setBeacon(source(beacon));
    const { raffles, players, endsAt } = await endedRaffles(1);
    const raffleId = raffles[0]!.id;
    // The crash: the database refuses the draw's write, after the round was fetched and verified.
    await db().$executeRawUnsafe(`CREATE FUNCTION test_crash_draw() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'crash'; END $$`);
    await db().$executeRawUnsafe(
      `CREATE TRIGGER test_crash_draw BEFORE UPDATE ON raffles FOR EACH ROW WHEN (NEW.status <> OLD.status) EXECUTE FUNCTION test_crash_draw()`,
    );
    try {
      await expect(drawDueRaffles(new Date(), { waitForBeacons: true })).rejects.toThrow(/crash/);
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER test_crash_draw ON raffles`);
      await db().$executeRawUnsafe(`DROP FUNCTION test_crash_draw()`);
    }
    expect(beacon.hits[0]).toBe(1);
    expect(await db().raffle.findUniqueOrThrow({ where: { id: raffleId }, select: { status: true } })).toEqual({ status: "active" });
    expect(await db().ledgerTransaction.count({ where: { raffleId, kind: "prize" } })).toBe(0);

    // A restarted process: its own source, which fetches the round again.
    setBeacon(source(beacon));
    const [outcome] = await drawDueRaffles(new Date(), { waitForBeacons: true });
    const round = roundAfter(beacon.chain, endsAt.getTime());
    expect(outcome).toMatchObject({ raffleId, outcome: "completed", winningTicket: await expectedWinner(raffleId, beacon.randomness(round)) });
    expect(beacon.hits[0]).toBe(2);
    expect(await db().ledgerTransaction.count({ where: { raffleId, kind: "prize" } })).toBe(1);
    expect(await drawDueRaffles(new Date(), { waitForBeacons: true })).toEqual([]);
    const paid = await Promise.all(players.map((p) => userBalance(p.id)));
    expect(paid.reduce((sum, b) => sum + b, 0n)).toBeLessThan(2_000n);
  });
});

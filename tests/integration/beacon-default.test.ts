import { afterAll, afterEach, describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { BeaconSource, beaconFromEnv, setBeacon } from "~/infra/beacon.server";
import { DRAND_RELAYS, forgetEnv } from "~/infra/env.server";
import { completeRaffle } from "~/services/back-office/admin.server";
import { enterRaffle } from "~/services/raffles/raffles.server";
import { QUICKNET, roundAfter } from "~/shared/draw-verifier.mjs";
import { call } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";
import { startLocalBeacon, type LocalBeacon } from "../support/local-beacon";
import { REAL_MODE_ENV } from "../support/stripe-mode";

/** Issue 34, item 1 (ADR 075): the beacon by default in real mode, pages that say when it is off, and no early completion by a ticket holder. */

const beacons: LocalBeacon[] = [];
afterEach(() => setBeacon(undefined));
afterAll(async () => {
  await Promise.all(beacons.map((b) => b.close()));
});

/** The beacon source this process would build from `env`, with the environment restored after. */
function sourceUnder(env: Record<string, string | undefined>): BeaconSource {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  try {
    for (const [key, value] of Object.entries(env)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    forgetEnv();
    return beaconFromEnv();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    forgetEnv();
  }
}

describe("the beacon by default", () => {
  it("with Stripe keys and no BEACON_URLS, commits new raffles to quicknet through drand's relays; BEACON_URLS=off does not", async () => {
    const endsAt = new Date(Date.now() + 60_000);
    const real = sourceUnder({ ...REAL_MODE_ENV, BEACON_URLS: undefined, BEACON_CHAIN_INFO: undefined });
    expect(real.config.urls).toEqual(DRAND_RELAYS);
    expect(await real.commitmentFor(endsAt)).toEqual({ chain: QUICKNET.hash, round: roundAfter(QUICKNET, endsAt.getTime()) });
    const off = sourceUnder({ ...REAL_MODE_ENV, BEACON_URLS: "off", BEACON_CHAIN_INFO: undefined });
    expect(off.commits).toBe(false);
    expect(await off.commitmentFor(endsAt)).toBeNull();
  });

  it("/fair and a draw's page say when draws are not joined to a beacon, and stay quiet when they are", async () => {
    setBeacon(new BeaconSource({ urls: [], chain: QUICKNET, deadlineMs: 1_000 }));
    const plain = await createTestRaffle();
    expect(await (await call("/fair")).text()).toContain("Draws here are not joined to a beacon");
    expect(await (await call(`/fair/${plain.id}`)).text()).toContain("Not joined to a beacon: the seed alone decides the winner.");

    const local = await startLocalBeacon();
    beacons.push(local);
    setBeacon(new BeaconSource({ urls: local.urls, chain: local.chain, deadlineMs: 1_000 }));
    const joined = await createTestRaffle();
    expect(await (await call("/fair")).text()).not.toContain("not joined to a beacon");
    const page = await (await call(`/fair/${joined.id}`)).text();
    expect(page).toMatch(/drand round \d+ \(chain [0-9a-f]{16}…\)/);
    expect(page).not.toContain("Not joined to a beacon");
  });
});

describe("completing a raffle early", () => {
  it("is refused to an admin who holds a ticket in it, and left to another admin", async () => {
    const raffle = await createTestRaffle();
    const holder = await createTestUser({ coins: 1_000n });
    const other = await createTestUser({ coins: 1_000n });
    await enterRaffle({ userId: holder.id, raffleId: raffle.id });
    await enterRaffle({ userId: other.id, raffleId: raffle.id });
    // Made an admin after buying the ticket (admins cannot enter raffles).
    await db().user.update({ where: { id: holder.id }, data: { isAdmin: true } });
    await expect(completeRaffle(holder.id, raffle.id)).rejects.toMatchObject({ code: "own_account" });
    expect((await db().raffle.findUniqueOrThrow({ where: { id: raffle.id } })).status).toBe("active");

    const admin = await createTestUser({ isAdmin: true });
    expect(await completeRaffle(admin.id, raffle.id)).toMatchObject({ outcome: "completed" });
  });

  it("is refused to every admin while the beacon is turned off (BEACON_URLS=off)", async () => {
    const raffle = await createTestRaffle();
    const admin = await createTestUser({ isAdmin: true });
    process.env.BEACON_URLS = "off";
    forgetEnv();
    try {
      await expect(completeRaffle(admin.id, raffle.id)).rejects.toMatchObject({ code: "raffle_closed", message: expect.stringContaining("BEACON_URLS=off") });
    } finally {
      delete process.env.BEACON_URLS;
      forgetEnv();
    }
    expect((await db().raffle.findUniqueOrThrow({ where: { id: raffle.id } })).status).toBe("active");
  });
});

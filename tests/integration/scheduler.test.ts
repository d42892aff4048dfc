import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { addMissingRaffleSeries } from "~/models/raffles/raffle-schedule.server";
import { enterRaffle } from "~/services/raffles/raffles.server";
import { schedulerTick, startScheduler, windowStart } from "~/services/raffles/scheduler.server";
import { createTestRaffle, createTestUser } from "../support/factories";
import { scaled } from "../support/timeouts";

describe("windowStart", () => {
  it("aligns rounds to the clock and staggers concurrent slots", () => {
    const quick = { durationSeconds: 30, concurrent: 1 };
    expect(windowStart(quick, 0, 95_000)).toBe(90_000);
    expect(windowStart(quick, 0, 90_000)).toBe(90_000);
    const regular = { durationSeconds: 180, concurrent: 2 };
    expect(windowStart(regular, 0, 200_000)).toBe(180_000);
    expect(windowStart(regular, 1, 200_000)).toBe(90_000);
    expect(windowStart(regular, 1, 280_000)).toBe(270_000);
    expect(windowStart(regular, 1, 80_000)).toBe(-90_000);
  });
});

describe("the scheduler", () => {
  it("with two instances on one database, opens each round once and draws each raffle once, round after round", async () => {
    await addMissingRaffleSeries([
      { slug: "test-quick", kind: "quick", tier: "lightning", entryPrice: 5n, durationSeconds: 30 },
      { slug: "test-regular", kind: "regular", tier: "micro", entryPrice: 10n, durationSeconds: 180, concurrent: 2 },
    ]);
    const players = await Promise.all([createTestUser({ coins: 10_000n }), createTestUser({ coins: 10_000n })]);
    const start = Math.ceil(Date.now() / 180_000) * 180_000 + 1_000;

    for (let step = 0; step < 14; step++) {
      const now = new Date(start + step * 15_000);
      // Two instances tick at the same moment.
      await Promise.all([schedulerTick(now), schedulerTick(now)]);
      const open = await db().raffle.findMany({
        // Each raffle gets its entries once, in the step after it started.
        where: { status: "active", startsAt: { lte: now, gt: new Date(now.getTime() - 15_000) }, endsAt: { gt: now } },
        select: { id: true },
      });
      for (const raffle of open) {
        for (const player of players) await enterRaffle({ userId: player.id, raffleId: raffle.id, now });
      }
    }

    const raffles = await db().raffle.findMany({ select: { id: true, status: true, scheduleId: true, slot: true, startsAt: true } });
    const keys = raffles.map((r) => `${r.scheduleId}/${r.slot}/${r.startsAt.getTime()}`);
    expect(new Set(keys).size).toBe(keys.length);
    const quickRounds = await db().raffle.count({ where: { kind: "quick" } });
    expect(quickRounds).toBeGreaterThanOrEqual(7);

    const drawn = raffles.filter((r) => r.status === "completed");
    expect(drawn.length).toBeGreaterThanOrEqual(6);
    for (const raffle of drawn) {
      expect(await db().ledgerTransaction.count({ where: { raffleId: raffle.id, kind: "prize" } })).toBe(1);
      expect(await db().auditEvent.count({ where: { target: `raffle:${raffle.id}`, action: "raffle.draw" } })).toBe(1);
    }
  });

  it("runs on its own timer and stops cleanly", async () => {
    await addMissingRaffleSeries([{ slug: "timer-quick", kind: "quick", tier: "bolt", entryPrice: 10n, durationSeconds: 30 }]);
    const scheduler = startScheduler({ intervalMs: 20 });
    await expect.poll(() => db().raffle.count({ where: { tier: "bolt" } }), { timeout: scaled(10_000) }).toBeGreaterThan(0);
    await scheduler.stop();
  });

  it("draws a raffle when it ends, not at the next interval", async () => {
    const players = await Promise.all([createTestUser({ coins: 1_000n }), createTestUser({ coins: 1_000n })]);
    const endsAt = new Date(Date.now() + 4_000);
    const raffle = await createTestRaffle({ endsAt });
    for (const player of players) await enterRaffle({ userId: player.id, raffleId: raffle.id });
    // With a 60-second interval, only waking at the raffle's end draws it within the poll's 20 seconds.
    const scheduler = startScheduler({ intervalMs: 60_000 });
    try {
      await expect
        .poll(async () => (await db().raffle.findUniqueOrThrow({ where: { id: raffle.id } })).status, { timeout: scaled(20_000), interval: 50 })
        .toBe("completed");
      const { drawnAt } = await db().raffle.findUniqueOrThrow({ where: { id: raffle.id } });
      expect(drawnAt!.getTime()).toBeGreaterThanOrEqual(endsAt.getTime());
    } finally {
      await scheduler.stop();
    }
  });
});

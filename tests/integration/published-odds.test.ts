import { describe, expect, it } from "vitest";
import { SPIN_INTERVAL_MS, spinWheel } from "~/services/rewards/rewards.server";
import { call, pageText } from "../support/app";
import { chiSquare, chiSquareCritical } from "../support/chi-square";
import { createTestUser } from "../support/factories";
import { scaled } from "../support/timeouts";

/**
 * The daily wheel, spun through the real service (configuration, VIP jackpot chances,
 * node:crypto), lands on each reward as often as /rules says it will: chi-square against
 * the published percentages, p > 10⁻⁶. Long runs (npm run test:reliability) spin more.
 */
const SPINS = process.env.RELIABILITY === "long" ? 40_000 : 800;
const PLAYERS = 10;

/** The published wheels: caption ("Standard", "VIP with 5x jackpot chances") → reward → percent. */
async function publishedOdds(): Promise<Map<number, Map<number, number>>> {
  const html = await pageText(await call("/rules"));
  const wheels = new Map<number, Map<number, number>>();
  for (const [, table] of html.matchAll(/<table[^>]*data-testid="wheel-odds"[^>]*>([\s\S]*?)<\/table>/g)) {
    const chances = Number(/VIP with (\d+)x jackpot chances/.exec(table!)?.[1] ?? 1);
    const slices = new Map(
      [...table!.matchAll(/<td>(\d+) coins<\/td><td[^>]*>([\d.]+)%<\/td>/g)].map(([, reward, percent]) => [Number(reward), Number(percent)]),
    );
    wheels.set(chances, slices);
  }
  return wheels;
}

/** Spins the wheel SPINS times for players of the tier, a day apart each. */
async function spin(vipTier?: "diamond") {
  const players = await Promise.all(
    Array.from({ length: PLAYERS }, () => createTestUser(vipTier ? { vipTier, vipExpiry: new Date("2100-01-01T00:00:00Z") } : {})),
  );
  const counts = new Map<number, number>();
  const start = Date.now();
  await Promise.all(
    players.map(async (player) => {
      for (let day = 0; day < SPINS / PLAYERS; day++) {
        const { reward } = await spinWheel(player.id, new Date(start + day * SPIN_INTERVAL_MS));
        counts.set(Number(reward), (counts.get(Number(reward)) ?? 0) + 1);
      }
    }),
  );
  return counts;
}

/** The wheel's statistic: spins landed on each published reward against its percentage. */
function fit(counts: Map<number, number>, percents: Map<number, number>): number {
  const published = [...percents];
  return chiSquare(
    published.map(([reward]) => counts.get(reward) ?? 0),
    published.map(([, percent]) => (SPINS * percent) / 100),
  );
}

describe("the spin wheel against its published odds", () => {
  it("publishes a standard wheel and one per VIP jackpot multiplier, each adding up to 100%", async () => {
    const wheels = await publishedOdds();
    expect([...wheels.keys()].sort()).toEqual([1, 2, 3, 5]);
    for (const slices of wheels.values()) {
      expect([...slices.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(100, 1);
    }
  });

  for (const [label, tier, chances] of [
    ["a player without VIP", undefined, 1],
    ["a diamond VIP (5x jackpot chances)", "diamond", 5],
  ] as const) {
    it(`lands as published for ${label} (chi-square, p > 10⁻⁶)`, { timeout: scaled(120_000) }, async () => {
      const published = (await publishedOdds()).get(chances)!;
      const counts = await spin(tier);
      expect([...counts.keys()].every((reward) => published.has(reward))).toBe(true);
      expect(fit(counts, published)).toBeLessThan(chiSquareCritical(published.size));
    });
  }
});

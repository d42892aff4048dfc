import { randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { chiSquare, chiSquareCritical } from "../../tests/support/chi-square";
import { expectedReward, pickReward, wheelOdds } from "./spin-wheel";

const WHEEL = [
  { reward: 5n, weight: 50 },
  { reward: 10n, weight: 30 },
  { reward: 25n, weight: 15 },
  { reward: 50n, weight: 5 },
];

describe("the spin wheel", () => {
  it("multiplies only the jackpot's weight by the VIP jackpot chances", () => {
    expect(wheelOdds(WHEEL, 3).map((s) => s.weight)).toEqual([50, 30, 15, 15]);
    expect(wheelOdds(WHEEL).map((s) => s.weight)).toEqual([50, 30, 15, 5]);
  });

  it("maps every ticket to the slice it falls in", () => {
    expect(pickReward(WHEEL, () => 0)).toBe(5n);
    expect(pickReward(WHEEL, () => 49)).toBe(5n);
    expect(pickReward(WHEEL, () => 50)).toBe(10n);
    expect(pickReward(WHEEL, () => 95)).toBe(50n);
    expect(pickReward(WHEEL, () => 99)).toBe(50n);
  });

  it("publishes the expected value", () => {
    expect(expectedReward(WHEEL)).toBeCloseTo(11.75, 10);
  });

  it("matches its published odds over many spins (chi-square, p > 10⁻⁶)", () => {
    for (const chances of [1, 5]) {
      const slices = wheelOdds(WHEEL, chances);
      const total = slices.reduce((sum, s) => sum + s.weight, 0);
      const spins = 40_000;
      const counts = new Map<bigint, number>();
      for (let i = 0; i < spins; i++) {
        const reward = pickReward(slices, randomInt);
        counts.set(reward, (counts.get(reward) ?? 0) + 1);
      }
      const observed = slices.map((s) => counts.get(s.reward) ?? 0);
      const expected = slices.map((s) => (spins * s.weight) / total);
      expect(chiSquare(observed, expected)).toBeLessThan(chiSquareCritical(slices.length));
    }
  });
});

import { randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { chiSquare, chiSquareCritical } from "../../tests/support/chi-square";
import { expectedReward, pickReward, prizeUnderPointer, restAngle, rotationOf, stopAngle, wheelOdds } from "./spin-wheel";

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

describe("the wheel's geometry", () => {
  const PRIZES = [5, 10, 25, 50];

  it.each(PRIZES)("rests with %i under the pointer, at its segment's centre", (prize) => {
    const angle = restAngle(PRIZES, prize);
    expect(prizeUnderPointer(PRIZES, angle)).toBe(prize);
    // Half a segment either way is still the same prize: the pointer is at the centre, not an edge.
    expect(prizeUnderPointer(PRIZES, angle + 44)).toBe(prize);
    expect(prizeUnderPointer(PRIZES, angle - 44)).toBe(prize);
  });

  it("puts the segments clockwise from the top: turning the wheel back one segment shows the next prize", () => {
    expect(restAngle(PRIZES, 5)).toBe(315);
    expect(restAngle(PRIZES, 10)).toBe(225);
    expect(restAngle(PRIZES, 25)).toBe(135);
    expect(restAngle(PRIZES, 50)).toBe(45);
  });

  it.each(PRIZES)("stops a spin on %i after at least two more turns, from any angle", (prize) => {
    for (const current of [0, 17.5, 359.9, 720, 12_345.6]) {
      const stop = stopAngle(current, PRIZES, prize);
      expect(stop - current).toBeGreaterThanOrEqual(720);
      expect(stop - current).toBeLessThan(1080);
      expect(prizeUnderPointer(PRIZES, stop)).toBe(prize);
      expect(((stop % 360) + 360) % 360).toBeCloseTo(restAngle(PRIZES, prize), 9);
    }
  });

  it("reads a rotation from CSS as the browser reports it", () => {
    expect(rotationOf("none")).toBe(0);
    expect(rotationOf("rotate(-45deg)")).toBe(315);
    expect(rotationOf("rotate(765deg)")).toBe(45);
    const rad = (135 * Math.PI) / 180;
    expect(rotationOf(`matrix(${Math.cos(rad)}, ${Math.sin(rad)}, ${-Math.sin(rad)}, ${Math.cos(rad)}, 0, 0)`)).toBeCloseTo(135, 6);
  });
});

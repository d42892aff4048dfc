import { describe, expect, it } from "vitest";
import { splitPot } from "./prize";

describe("splitPot", () => {
  it("gives half the pot, rounded down to a coin, and the rest to the house", () => {
    expect(splitPot(100n, 10)).toEqual({ prize: 50n, rake: 50n });
    expect(splitPot(105n, 10)).toEqual({ prize: 52n, rake: 53n });
    expect(splitPot(1n, 10)).toEqual({ prize: 0n, rake: 1n });
  });

  it("applies the VIP multiplier after halving, rounding down", () => {
    expect(splitPot(105n, 11)).toEqual({ prize: 57n, rake: 48n }); // 52 × 1.1 = 57.2
    expect(splitPot(1000n, 15)).toEqual({ prize: 750n, rake: 250n });
  });

  it("never pays more than the whole pot", () => {
    expect(splitPot(1001n, 20)).toEqual({ prize: 1000n, rake: 1n }); // 500 × 2
    expect(splitPot(999n, 25)).toEqual({ prize: 999n, rake: 0n });
  });

  it("works for pots beyond 2^53 coins", () => {
    const pot = 2n ** 60n + 1n;
    const { prize, rake } = splitPot(pot, 10);
    expect(prize + rake).toBe(pot);
    expect(prize).toBe(2n ** 59n);
  });
});

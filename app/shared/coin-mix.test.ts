import { describe, expect, it } from "vitest";
import { COIN_PACKAGES } from "./coin-packages";
import { paidMix } from "./coin-mix";
import { VIP_TIERS } from "./vip";

describe("paidMix", () => {
  it("credits every package's price in cents as cash and the rest of its coins as bonus", () => {
    expect(COIN_PACKAGES.map((p) => paidMix(p.priceCents, BigInt(p.coins)))).toEqual([
      { cash: 99n, bonus: 1n },
      { cash: 499n, bonus: 101n },
      { cash: 999n, bonus: 501n },
      { cash: 2499n, bonus: 2501n },
    ]);
  });

  it("adds a VIP purchase bonus to the bonus coins only", () => {
    for (const tier of Object.values(VIP_TIERS)) {
      const vipBonus = (5000n * BigInt(tier.bonusPercent)) / 100n;
      expect(paidMix(2499, 5000n + vipBonus)).toEqual({ cash: 2499n, bonus: 2501n + vipBonus });
    }
  });

  it("never credits more cash than the coins bought", () => {
    expect(paidMix(500, 300n)).toEqual({ cash: 300n, bonus: 0n });
  });
});

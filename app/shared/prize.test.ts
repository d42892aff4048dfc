import { describe, expect, it } from "vitest";
import { prizeOutlook, splitPot, splitPotMix } from "./prize";

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

describe("splitPotMix", () => {
  it("pays the base prize in the pot's mix, the cash part rounded down, and the house the rest of each", () => {
    // Pot 105 (70 cash, 35 bonus): prize 52, cash floor(52 × 70 / 105) = 34, bonus 18.
    expect(splitPotMix({ cash: 70n, bonus: 35n }, 10)).toEqual({ prize: { cash: 34n, bonus: 18n }, rake: { cash: 36n, bonus: 17n }, extra: 0n });
    // 52 × 1 / 3 = 17.33: the third of a cash coin goes to bonus, not to the winner's cash.
    expect(splitPotMix({ cash: 35n, bonus: 70n }, 10)).toEqual({ prize: { cash: 17n, bonus: 35n }, rake: { cash: 18n, bonus: 35n }, extra: 0n });
  });

  it("keeps an all-cash or all-bonus pot in its currency; the extra is bonus", () => {
    expect(splitPotMix({ cash: 100n, bonus: 0n }, 10)).toEqual({ prize: { cash: 50n, bonus: 0n }, rake: { cash: 50n, bonus: 0n }, extra: 0n });
    expect(splitPotMix({ cash: 0n, bonus: 100n }, 15)).toEqual({ prize: { cash: 0n, bonus: 50n }, rake: { cash: 0n, bonus: 50n }, extra: 25n });
  });

  it("at 2x pays half the pot's cash as cash, and the extra as bonus (issue 31, item 5)", () => {
    // A Diamond player's bonus ticket in a 4,000-coin pot with 2,470 of card money in it.
    expect(splitPotMix({ cash: 2470n, bonus: 1530n }, 20)).toEqual({ prize: { cash: 1235n, bonus: 765n }, rake: { cash: 1235n, bonus: 765n }, extra: 2000n });
  });

  it("leaves the house half the pot's cash at every multiplier, the whole prize as before", () => {
    for (let cash = 0n; cash <= 40n; cash += 1n) {
      for (let bonus = 0n; bonus <= 40n; bonus += 1n) {
        for (const multiplier of [10, 11, 12, 15, 20]) {
          const { prize, rake, extra } = splitPotMix({ cash, bonus }, multiplier);
          expect(prize.cash + rake.cash).toBe(cash);
          expect(prize.bonus + rake.bonus).toBe(bonus);
          expect(prize.cash >= 0n && prize.bonus >= 0n && rake.cash >= 0n && rake.bonus >= 0n && extra >= 0n).toBe(true);
          expect(rake.cash * 2n >= cash).toBe(true);
          expect(prize.cash + prize.bonus + extra).toBe(splitPot(cash + bonus, multiplier).prize);
        }
      }
    }
  });
});

describe("prizeOutlook (what a card says a player stands to win)", () => {
  const round = { pot: 10n, entryPrice: 5n, participantCount: 2 };
  it("is the prize of the pot as it stands for a player in a round that could be drawn now", () => {
    expect(prizeOutlook({ ...round, myTickets: 1, multiplierTenths: 10 })).toEqual({ coins: 5n, ifDrawnNow: true });
    expect(prizeOutlook({ ...round, pot: 1000n, myTickets: 3, multiplierTenths: 15 })).toEqual({ coins: 750n, ifDrawnNow: true });
  });

  it("counts one more ticket in for a player not in the round, or alone in it (the spec's estimate)", () => {
    expect(prizeOutlook({ ...round, myTickets: 0, multiplierTenths: 10 })).toEqual({ coins: 7n, ifDrawnNow: false });
    expect(prizeOutlook({ ...round, participantCount: 1, pot: 5n, myTickets: 1, multiplierTenths: 10 })).toEqual({ coins: 5n, ifDrawnNow: false });
    expect(prizeOutlook({ ...round, myTickets: 0, multiplierTenths: 20 })).toEqual({ coins: 14n, ifDrawnNow: false });
  });
});

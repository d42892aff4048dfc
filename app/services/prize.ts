import type { CoinMix } from "./coin-mix";

/**
 * The prize rule (PRODUCT.md): half the pot, rounded down to a coin, times the
 * winner's VIP multiplier (rounded down again), never more than the whole pot. The
 * house keeps the rest.
 */
export function splitPot(pot: bigint, multiplierTenths: number): { prize: bigint; rake: bigint } {
  if (pot < 0n) throw new RangeError("pot must not be negative");
  const half = pot / 2n;
  const boosted = (half * BigInt(multiplierTenths)) / 10n;
  const prize = boosted > pot ? pot : boosted;
  return { prize, rake: pot - prize };
}

/** The spec's "you could win" estimate: half the pot plus half the entry price (with this ticket in). */
export function couldWin(pot: bigint, entryPrice: bigint): bigint {
  return (pot + entryPrice) / 2n;
}

/**
 * The prize and the house's share in the pot's own mix (PRODUCT.md, "Cash coins and bonus
 * coins"): the prize's cash part is floor(prize × cash in the pot ÷ pot), the rest of it
 * bonus; the house takes what is left of each. So a staked bonus coin wins at most its
 * share of cash, and neither part can exceed what the pot holds of it.
 */
export function splitPotMix(pot: CoinMix, multiplierTenths: number): { prize: CoinMix; rake: CoinMix } {
  if (pot.cash < 0n || pot.bonus < 0n) throw new RangeError("pot must not be negative");
  const total = pot.cash + pot.bonus;
  const { prize } = splitPot(total, multiplierTenths);
  const prizeCash = total === 0n ? 0n : (prize * pot.cash) / total;
  const prizeBonus = prize - prizeCash;
  return {
    prize: { cash: prizeCash, bonus: prizeBonus },
    rake: { cash: pot.cash - prizeCash, bonus: pot.bonus - prizeBonus },
  };
}

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

/**
 * What a player stands to win (the cards' "you could win"), with their VIP multiplier
 * (PRODUCT.md). A player in a round that could be drawn now (two players or more) would
 * win the prize of the pot as it stands; anyone else would win it with one more ticket
 * in: the spec's estimate, half the pot plus half the entry price, times the multiplier.
 */
export function prizeOutlook({
  pot,
  entryPrice,
  myTickets,
  participantCount,
  multiplierTenths,
}: {
  pot: bigint;
  entryPrice: bigint;
  myTickets: number;
  participantCount: number;
  multiplierTenths: number;
}): { coins: bigint; ifDrawnNow: boolean } {
  const ifDrawnNow = myTickets > 0 && participantCount >= 2;
  return { coins: splitPot(ifDrawnNow ? pot : pot + entryPrice, multiplierTenths).prize, ifDrawnNow };
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

import type { CoinMix } from "./coin-mix";
import { coinsToDecimal } from "./money";

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

/** The outlook as a raffle's view states it (listRaffles, and a card whose pot came live): dollars, and whether it is the prize if drawn now. */
export function couldWinView(outlook: Parameters<typeof prizeOutlook>[0]): { couldWin: string; couldWinNow: boolean } {
  const { coins, ifDrawnNow } = prizeOutlook(outlook);
  return { couldWin: coinsToDecimal(coins), couldWinNow: ifDrawnNow };
}

/**
 * The prize and the house's share (PRODUCT.md, "The multiplier's extra is a gift of the
 * house"): the winner's base prize is half the pot in the pot's own mix (its cash part
 * floor(base × cash in the pot ÷ pot), the rest bonus); the house keeps the other half, in
 * what is left of each part. The VIP extra (base × (m − 1), rounded down, the whole prize
 * never more than the pot) is bonus coins from the promotions account. So every pot leaves
 * at least half of its cash with the house, at every multiplier, and a staked bonus coin
 * wins at most its share of cash.
 */
export function splitPotMix(pot: CoinMix, multiplierTenths: number): { prize: CoinMix; rake: CoinMix; extra: bigint } {
  if (pot.cash < 0n || pot.bonus < 0n) throw new RangeError("pot must not be negative");
  const total = pot.cash + pot.bonus;
  const base = splitPot(total, 10).prize;
  const extra = splitPot(total, multiplierTenths).prize - base;
  const baseCash = total === 0n ? 0n : (base * pot.cash) / total;
  const baseBonus = base - baseCash;
  return {
    prize: { cash: baseCash, bonus: baseBonus },
    rake: { cash: pot.cash - baseCash, bonus: pot.bonus - baseBonus },
    extra: extra > 0n ? extra : 0n,
  };
}

/**
 * Cash and bonus coins (PRODUCT.md, "Cash coins and bonus coins"). Cash is
 * withdrawable: money paid in (1 cent = 1 coin) and the cash part of prizes and refunds.
 * Bonus is play only: everything the house gives. Each is its own ledger account.
 */
export type CoinMix = { cash: bigint; bonus: bigint };

/**
 * What a card payment of `amountCents` that buys `coins` (the package and any VIP bonus)
 * credits: the cents paid as cash, the rest as bonus. package_4 ($24.99, 5,000 coins):
 * 2,499 cash and 2,501 bonus.
 */
export function paidMix(amountCents: number, coins: bigint): CoinMix {
  const paid = BigInt(amountCents);
  const cash = paid < coins ? paid : coins;
  return { cash, bonus: coins - cash };
}

/**
 * The bonus coins that `cents` more of a purchase takes back (a refund, a dispute, a
 * withdrawal paid back to the card), after `takenBackCents` already were: its bonus in
 * proportion, floored cumulatively, so that parts adding up to the whole take all of it.
 */
export function bonusCoveredBy(purchase: { amountCents: number; coinsCredited: bigint }, takenBackCents: number, cents: number): bigint {
  const { bonus } = paidMix(purchase.amountCents, purchase.coinsCredited);
  const upTo = (c: number) => (bonus * BigInt(c)) / BigInt(purchase.amountCents);
  return upTo(takenBackCents + cents) - upTo(takenBackCents);
}

export function smaller(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

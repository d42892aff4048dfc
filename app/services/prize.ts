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

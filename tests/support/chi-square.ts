/**
 * Chi-square goodness of fit for the tests that draw with fresh randomness from node:crypto:
 * the draw over fresh seeds, a player's share of the tickets, and the spin wheel in the unit
 * and through the real service.
 *
 * Such a test can fail by chance alone. At P = 0.001 the six of them failed about one CI run in
 * 170, and one did (2026-11-26). At P = 10⁻⁶ chance fails them about once in 170,000 runs; each
 * test draws about twice the samples it drew at 0.001, so a bias it caught then it still
 * catches (the noncentrality a biased draw builds grows with the samples).
 */

/** P(χ² > x) = 10⁻⁶ for 1 to 6 degrees of freedom. */
const CRITICAL = [23.93, 27.63, 30.66, 33.38, 35.89, 38.26] as const;

/** Pearson's statistic of counts against their expected counts, category by category. */
export function chiSquare(observed: readonly number[], expected: readonly number[]): number {
  if (observed.length !== expected.length) throw new Error("observed and expected differ in length");
  return observed.reduce((sum, count, i) => sum + (count - expected[i]!) ** 2 / expected[i]!, 0);
}

/** The value chance exceeds with probability 10⁻⁶ over `categories` categories. */
export function chiSquareCritical(categories: number): number {
  const critical = CRITICAL[categories - 2];
  if (critical === undefined) throw new Error(`no critical value for ${categories} categories`);
  return critical;
}

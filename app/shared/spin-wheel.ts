/**
 * The daily wheel's odds: rewards with integer weights (configuration), the largest
 * reward being the jackpot, whose weight a VIP tier's "jackpot chances" multiplies.
 */
export type WheelSlice = { reward: bigint; weight: number };

export function wheelOdds(slices: WheelSlice[], jackpotChances = 1): WheelSlice[] {
  const jackpot = slices.reduce((max, slice) => (slice.reward > max ? slice.reward : max), 0n);
  return slices.map((slice) => (slice.reward === jackpot ? { ...slice, weight: slice.weight * jackpotChances } : slice));
}

/** Picks a reward with `randomInt(total)` (node:crypto's, on the server). */
export function pickReward(slices: WheelSlice[], randomInt: (max: number) => number): bigint {
  const total = slices.reduce((sum, slice) => sum + slice.weight, 0);
  let ticket = randomInt(total);
  for (const slice of slices) {
    if (ticket < slice.weight) return slice.reward;
    ticket -= slice.weight;
  }
  throw new Error("unreachable: ticket beyond total weight");
}

/** Expected reward in coins (for the published odds). */
export function expectedReward(slices: WheelSlice[]): number {
  const total = slices.reduce((sum, slice) => sum + slice.weight, 0);
  return slices.reduce((sum, slice) => sum + (Number(slice.reward) * slice.weight) / total, 0);
}

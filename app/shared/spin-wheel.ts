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

/*
 * The wheel's geometry: the configured rewards in equal segments, clockwise from the top,
 * and a fixed pointer at the top. An angle is the wheel's clockwise rotation in degrees.
 */

/** The rotation (0 ≤ angle < 360) that puts `prize`'s segment centre under the pointer; 0 if it is not on the wheel. */
export function restAngle(prizes: readonly number[], prize: number): number {
  const index = prizes.indexOf(prize);
  if (index < 0) return 0;
  return (360 - ((index + 0.5) * 360) / prizes.length) % 360;
}

/** The prize whose segment is under the pointer when the wheel is turned by `angle`. */
export function prizeUnderPointer(prizes: readonly number[], angle: number): number {
  const onWheel = (((-angle % 360) + 360) % 360) / (360 / prizes.length);
  return prizes[Math.floor(onWheel) % prizes.length]!;
}

/** The first angle from `current` on, after at least `turns` full turns, that shows the same as `target`. */
export function turnTo(current: number, target: number, turns = 0): number {
  const from = current + turns * 360;
  const ahead = (((target - from) % 360) + 360) % 360;
  // An angle read from the browser carries rounding: a hair short of a turn is no turn.
  return from + (ahead > 360 - 1e-9 ? 0 : ahead);
}

/** Where a wheel turning at `current` stops on `prize`: after at least `turns` more full turns. */
export function stopAngle(current: number, prizes: readonly number[], prize: number, turns = 2): number {
  return turnTo(current, restAngle(prizes, prize), turns);
}

/** The rotation a CSS `transform` shows ("matrix(…)", "rotate(…deg)" or "none"), 0 ≤ angle < 360. */
export function rotationOf(transform: string): number {
  const rotate = /^rotate\((-?[\d.]+)deg\)$/.exec(transform);
  if (rotate) return ((Number(rotate[1]) % 360) + 360) % 360;
  const matrix = /^matrix\(([^,]+),\s*([^,]+),/.exec(transform);
  if (!matrix) return 0;
  const degrees = (Math.atan2(Number(matrix[2]), Number(matrix[1])) * 180) / Math.PI;
  return (degrees + 360) % 360;
}

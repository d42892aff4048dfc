import { db, type Tx } from "../db.server";

/** What spin_wheel answered: spun, or why not (with the exclusion's end and kind, or the last spin's time). */
export type SpinOutcome = {
  outcome: "spun" | "user_not_found" | "excluded" | "jurisdiction" | "spin_not_ready" | "changed";
  at: Date | null;
  exclusionKind: string | null;
};

/**
 * Spins in one statement (prisma/sql/functions/spin_wheel.sql): `reward` was drawn with the
 * membership `read`; a membership changed since answers "changed".
 */
export async function spinIn(
  spin: { userId: string; reward: bigint; now: Date; intervalMs: number },
  places: { countries: string[]; regions: string[] },
  read: { vipTier: string | null; vipExpiry: Date | null },
): Promise<SpinOutcome> {
  const [row] = await db().$queryRaw<SpinOutcome[]>`
    SELECT outcome, at, "exclusionKind" FROM spin_wheel(
      ${spin.userId}::uuid, ${spin.reward}, ${spin.now}, make_interval(secs => ${spin.intervalMs / 1000}),
      ${places.countries}::text[], ${places.regions}::text[], ${read.vipTier}::text, ${read.vipExpiry}::timestamptz)`;
  return row!;
}

/** Records the day's claim; false when the player has claimed this UTC day already. */
export async function recordVipClaim(
  tx: Tx,
  claim: { userId: string; day: Date; tier: "bronze" | "silver" | "gold" | "platinum" | "diamond"; amount: bigint },
): Promise<boolean> {
  const { count } = await tx.vipDailyClaim.createMany({ data: [claim], skipDuplicates: true });
  return count === 1;
}

export function vipClaimOn(userId: string, day: Date) {
  return db().vipDailyClaim.findUnique({ where: { userId_day: { userId, day } }, select: { amount: true } });
}

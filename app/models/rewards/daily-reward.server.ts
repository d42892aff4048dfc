import { db } from "../db.server";

/** Why lock_player_gate stops a gift of the house (the membership read is "changed"). */
type GateRefusal = "user_not_found" | "excluded" | "jurisdiction" | "changed";

/** What a gift's function answered: done, or why not (with the exclusion's end and kind, or another time it names). */
export type GiftOutcome<Outcome extends string> = { outcome: Outcome | GateRefusal; at: Date | null; exclusionKind: string | null };

/** What spin_wheel answered (`at`: the last spin's time when not ready). */
export type SpinOutcome = GiftOutcome<"spun" | "spin_not_ready">;

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

/** What claim_vip_bonus answered. */
export type VipClaimOutcome = GiftOutcome<"claimed" | "not_vip" | "already_claimed">;

/**
 * Claims the day's VIP bonus in one statement (prisma/sql/functions/claim_vip_bonus.sql):
 * `amount` is the daily coins of the membership `read`; a membership changed since answers "changed".
 */
export async function claimVipIn(
  claim: { userId: string; day: Date; now: Date; amount: bigint },
  places: { countries: string[]; regions: string[] },
  read: { vipTier: string | null; vipExpiry: Date | null },
): Promise<VipClaimOutcome> {
  const [row] = await db().$queryRaw<VipClaimOutcome[]>`
    SELECT outcome, at, "exclusionKind" FROM claim_vip_bonus(
      ${claim.userId}::uuid, ${claim.day.toISOString().slice(0, 10)}::date, ${claim.now}, ${places.countries}::text[], ${places.regions}::text[],
      ${read.vipTier}::text, ${read.vipExpiry}::timestamptz, ${claim.amount})`;
  return row!;
}

export function vipClaimOn(userId: string, day: Date) {
  return db().vipDailyClaim.findUnique({ where: { userId_day: { userId, day } }, select: { amount: true } });
}

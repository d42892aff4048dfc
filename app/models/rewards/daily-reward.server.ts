import { db, type Tx } from "../db.server";

export function lastSpin(userId: string, client: Tx = db()) {
  return client.dailySpin.findFirst({ where: { userId }, orderBy: { spunAt: "desc" }, select: { spunAt: true, reward: true } });
}

export function recordSpin(tx: Tx, spin: { userId: string; reward: bigint; spunAt: Date }) {
  return tx.dailySpin.create({ data: spin, select: { id: true } });
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

import type { Tx } from "../db.server";

/** A dispute as recorded: what it took back, and whether it was won (ADR 108). */
export type DisputeRow = {
  paymentId: string;
  coveredCents: number;
  /** The coins it took from the player; null for a dispute recorded before they were kept. */
  taken: { cash: bigint; bonus: bigint } | null;
  wonAt: Date | null;
};

/**
 * Records a dispute of a payment; false when one of its events was handled before. `wonAt`:
 * a dispute first heard of as won, which took nothing and takes nothing later.
 */
export async function claimDispute(
  tx: Tx,
  dispute: { disputeId: string; paymentId: string; amountCents: number; eventId?: string; wonAt?: Date },
): Promise<boolean> {
  const claimed = await tx.paymentDispute.createMany({ data: [{ ...dispute, takenCash: 0n, takenBonus: 0n }], skipDuplicates: true });
  return claimed.count === 1;
}

/** What the dispute took back: the payment's cents it covered and the player's coins. */
export async function recordDisputeTaken(tx: Tx, disputeId: string, taken: { coveredCents: number; cash: bigint; bonus: bigint }) {
  await tx.paymentDispute.update({
    where: { disputeId },
    data: { coveredCents: taken.coveredCents, takenCash: taken.cash, takenBonus: taken.bonus },
  });
}

/** The dispute, locked until the transaction ends: its win is handled once. */
export async function lockDispute(tx: Tx, disputeId: string): Promise<DisputeRow | undefined> {
  const [row] = await tx.$queryRaw<{ paymentId: string; coveredCents: number; cash: bigint | null; bonus: bigint | null; wonAt: Date | null }[]>`
    SELECT payment_id::text AS "paymentId", covered_cents AS "coveredCents",
           taken_cash AS cash, taken_bonus AS bonus, won_at AS "wonAt"
    FROM payment_disputes WHERE dispute_id = ${disputeId} FOR UPDATE`;
  if (!row) return undefined;
  const taken = row.cash === null || row.bonus === null ? null : { cash: row.cash, bonus: row.bonus };
  return { paymentId: row.paymentId, coveredCents: row.coveredCents, taken, wonAt: row.wonAt };
}

export async function markDisputeWon(tx: Tx, disputeId: string, now: Date) {
  await tx.paymentDispute.update({ where: { disputeId }, data: { wonAt: now } });
}

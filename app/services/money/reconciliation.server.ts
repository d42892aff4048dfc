import { recordAudit } from "~/models/back-office/audit-event.server";
import { db, isUniqueViolation } from "~/models/db.server";
import * as legs from "~/models/money/payout-leg.server";
import { clearFlagSeen, lockUser, userStanding } from "~/models/accounts/user.server";
import { withdrawalStatus } from "~/models/money/withdrawal.server";
import { DomainError } from "~/shared/domain-error";
import { refuseOwnAccount, settleLeg } from "./payouts.server";

/**
 * What support settles in the back office once it has checked with the provider.
 *
 * A refund the provider refused is held for review: its amount stays held and the
 * account is flagged, because the cents may have reached the card another way (a refund made
 * at the provider, a charge-back). An admin who has looked records either that the money
 * reached the card, with the provider's reference (the leg completes, as a confirmed refund
 * would), or that it did not, with the reason the player is told (the leg fails: the amount
 * comes back as cash, and the payment's cents can be refunded again).
 *
 * A flag stops every payout to the account until an admin clears it, with a note, after the
 * refunds held for review are reconciled. The admin clears the flag they saw: one set again
 * meanwhile (another dispute) stays until they look at it.
 */
export async function reconcileRefund(
  adminId: string,
  legId: string,
  outcome: { reference: string } | { failure: string },
  now = new Date(),
): Promise<{ status: string }> {
  const leg = await legs.findLeg(legId);
  if (!leg || leg.kind !== "card_refund") throw new DomainError("withdrawal_not_found", "Refund not found");
  if (leg.status !== "review") throw new DomainError("withdrawal_decided", `This refund is not held for review: it is ${leg.status}`);
  let settled: boolean;
  try {
    settled = await settleLeg(
      leg.withdrawalId,
      leg.id,
      "reference" in outcome
        ? { status: "completed", reference: `reconciled:${outcome.reference}`, by: adminId, held: true }
        : { status: "failed", reason: outcome.failure, by: adminId, held: true },
      now,
      async (_tx, w) => refuseOwnAccount(adminId, w.userId),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError("invalid_input", "This reference is already recorded for another payout");
    throw error;
  }
  if (!settled) throw new DomainError("withdrawal_decided", "This refund was reconciled meanwhile");
  return { status: await withdrawalStatus(leg.withdrawalId) };
}

/** Clears the account's flag set at `flaggedAt` (the one the admin saw), with their note. */
export async function clearFlag(adminId: string, userId: string, flaggedAt: Date, note: string): Promise<void> {
  refuseOwnAccount(adminId, userId);
  await db().$transaction(async (tx) => {
    // The account's row first: a refund going into review flags it in the same transaction,
    // so it is either seen below (and the clear refused) or flags the account again after.
    await lockUser(tx, userId);
    const standing = await userStanding(tx, userId);
    if (!standing) throw new DomainError("user_not_found", "Player not found");
    if (!standing.flaggedAt) throw new DomainError("withdrawal_decided", "The account is not flagged");
    if ((await legs.countRefundsInReview(tx, userId)) > 0) {
      throw new DomainError("withdrawal_decided", "A refund of this player's is held for review: reconcile it first");
    }
    const reason = await clearFlagSeen(tx, userId, flaggedAt);
    if (reason === null) throw new DomainError("withdrawal_decided", "The account's flag changed meanwhile: look at it again");
    await recordAudit(tx, { actor: adminId, action: "user.clear_flag", target: `user:${userId}`, details: { before: { flagReason: reason }, note } });
  });
}

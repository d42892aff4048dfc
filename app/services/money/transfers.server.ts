import { recordAudit } from "~/models/back-office/audit-event.server";
import { db, isUniqueViolation } from "~/models/db.server";
import { lockWithdrawal, transferToSend, withdrawalStatus } from "~/models/money/withdrawal.server";
import * as legs from "~/models/money/payout-leg.server";
import { decrypt } from "~/infra/crypto-box.server";
import { DomainError } from "~/shared/domain-error";
import { coinsToDecimal } from "~/shared/money";
import { METHOD_LABELS } from "~/shared/withdrawal-rules";
import { refuseBlockedPayee, refuseOwnAccount, settleLeg, type Guard } from "./payouts.server";

/**
 * The transfer step (PRODUCT.md "A transfer paid by hand shows the admin where to send
 * it"): the full destination of a bank, PayPal or Venmo transfer, decrypted for the admin
 * who records it and for no one else; each view is in the audit log. Everywhere else the
 * destination stays masked.
 */
export type TransferStep = {
  withdrawalId: string;
  player: string;
  amount: string;
  method: string;
  /** The full destination, field by field ("PayPal email": "alice@example.com"). */
  destination: { label: string; value: string }[];
};

export async function transferStep(adminId: string, withdrawalId: string): Promise<TransferStep> {
  return db().$transaction(async (tx) => {
    const w = await transferToSend(tx, withdrawalId);
    if (!w) throw new DomainError("withdrawal_not_found", "Payout not found");
    refuseOwnAccount(adminId, w.userId);
    const leg = w.legs[0];
    // A withdrawal without a method has no transfer leg: all of it went back to the cards.
    if (!leg || !w.method) throw new DomainError("withdrawal_decided", "This payout has no transfer waiting for a reference");
    // Who may not be paid is not shown where to pay them.
    await refuseBlockedPayee(tx, w.userId);
    // A card is paid to the provider's token (its number is never stored).
    const sealed = w.destinationEncrypted ? (JSON.parse(decrypt(w.destinationEncrypted)) as Record<string, string>) : {};
    const destination =
      w.method === "debit_card"
        ? [
            { label: "Card", value: w.destinationMasked },
            { label: "Payout token", value: w.cardToken ?? "" },
          ]
        : w.method === "bank"
          ? [
              { label: "Routing number", value: sealed.routingNumber ?? "" },
              { label: "Account number", value: sealed.accountNumber ?? "" },
            ]
          : [{ label: w.method === "paypal" ? "PayPal email" : "Venmo username", value: sealed.username ?? "" }];
    // The view is the record: who saw which payout's destination, and when (not the destination itself).
    await recordAudit(tx, {
      actor: adminId,
      action: "payout.destination_view",
      target: `withdrawal:${w.id}`,
      details: { leg: leg.id, method: w.method, masked: w.destinationMasked },
    });
    return {
      withdrawalId: w.id,
      player: w.user.username ?? w.user.email,
      amount: coinsToDecimal(leg.amount),
      method: METHOD_LABELS[w.method],
      destination,
    };
  });
}

/**
 * An admin records that the transfer leg was sent by hand (its bank or wallet reference),
 * or that it failed (with the reason the player is told). Not for their own account; not
 * to an account that may not be paid.
 */
export async function settleTransfer(
  adminId: string,
  withdrawalId: string,
  outcome: { reference: string } | { failure: string },
  now = new Date(),
): Promise<{ status: "processing" | "completed" | "failed" }> {
  const leg = await db().$transaction(async (tx) => {
    const w = await lockWithdrawal(tx, withdrawalId);
    if (!w) throw new DomainError("withdrawal_not_found", "Payout not found");
    const transfer = (await legs.lockLegs(tx, withdrawalId)).find((l) => l.kind === "transfer");
    if (!transfer || transfer.status !== "processing") throw new DomainError("withdrawal_decided", "This payout has no transfer waiting for a reference");
    return transfer;
  });
  const by = adminId;
  // Checked again under the lock that settles it: a flag set meanwhile still stops it.
  const guard: Guard = async (tx, w) => {
    refuseOwnAccount(adminId, w.userId);
    // Recording a transfer as sent pays the account; recording a failure pays nothing.
    if ("reference" in outcome) await refuseBlockedPayee(tx, w.userId);
  };
  try {
    await settleLeg(
      withdrawalId,
      leg.id,
      "reference" in outcome ? { status: "completed", reference: `transfer:${outcome.reference}`, by } : { status: "failed", reason: outcome.failure, by },
      now,
      guard,
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError("invalid_input", "This reference is already recorded for another payout");
    throw error;
  }
  return { status: (await withdrawalStatus(withdrawalId)) as "processing" | "completed" | "failed" };
}

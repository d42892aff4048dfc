import * as admin from "~/models/back-office/reports.server";
import { recordAudit } from "~/models/back-office/audit-event.server";
import { db } from "~/models/db.server";
import { payingSinceByUser } from "~/models/money/withdrawal.server";
import { getEnv } from "~/infra/env.server";
import { DomainError } from "~/shared/domain-error";
import { coinsToDecimal as dollars } from "~/shared/money";
import { approvePayout, SECOND_APPROVAL_WINDOW_MS } from "../back-office/admin.server";
import { payeeBlock } from "./payouts.server";

/**
 * The pending payouts up to `maxCents` that one approval settles: no identity check
 * waiting, the player's payouts of the last 24 hours within the second-approver amount,
 * an account that may be paid, not the admin's own. What bulk approval would approve now.
 */
export async function bulkCandidates(adminId: string, maxCents: number, now = new Date()) {
  const threshold = BigInt(getEnv().PAYOUT_SECOND_APPROVAL_ABOVE_CENTS);
  const pending = await admin.pendingWithdrawals();
  const paying = await payingSinceByUser([...new Set(pending.map((w) => w.user.id))], new Date(now.getTime() - SECOND_APPROVAL_WINDOW_MS));
  const candidates = pending.filter(
    (w) =>
      w.amount <= BigInt(maxCents) &&
      (paying.get(w.user.id) ?? 0n) <= threshold &&
      (!w.requiresVerification || w.user.identityVerifiedAt) &&
      payeeBlock(w.user) === null &&
      w.user.id !== adminId,
  );
  return {
    count: candidates.length,
    total: dollars(candidates.reduce((sum, w) => sum + w.amount, 0n)),
    payouts: candidates.map((w) => ({ id: w.id, amount: w.amount })),
  };
}

/**
 * Approves every pending payout up to `maxCents` that one approval settles (bulkCandidates);
 * approvePayout checks each again under its lock and refuses what either rule holds back.
 * The audit row is written whatever happens, with what was approved before it stopped.
 */
export async function bulkApprove(adminId: string, maxCents: number, now = new Date()): Promise<{ approved: number; total: string }> {
  const { payouts } = await bulkCandidates(adminId, maxCents, now);
  let approved = 0;
  let total = 0n;
  try {
    for (const w of payouts) {
      try {
        if ((await approvePayout(adminId, w.id, now, { bulk: true })).status !== "awaiting_second_approval") {
          approved += 1;
          total += w.amount;
        }
      } catch (error) {
        // Decided by someone else meanwhile, or held back by a rule: skip it.
        if (!(error instanceof DomainError)) throw error;
      }
    }
  } finally {
    await db().$transaction((tx) =>
      recordAudit(tx, { actor: adminId, action: "payout.bulk_approve", target: "withdrawals", details: { maxCents, approved, total: total.toString() } }),
    );
  }
  return { approved, total: dollars(total) };
}

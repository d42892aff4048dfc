import type { Prisma } from "~/generated/prisma/client";
import * as admin from "~/models/back-office/reports.server";
import { recordAudit } from "~/models/back-office/audit-event.server";
import { db } from "~/models/db.server";
import { postTransaction, userAccountId } from "~/models/money/ledger.server";
import { lockLegs, refundsInReview, transfersAwaitingReference, updateLeg } from "~/models/money/payout-leg.server";
import { lockUser, setIdentityVerifiedAt, userStanding } from "~/models/accounts/user.server";
import { recordOutsideCheck } from "~/models/accounts/identity-check.server";
import { lockWithdrawal, payingSince, payingSinceByUser, updateWithdrawal, withdrawalStatus } from "~/models/money/withdrawal.server";
import { setSuspension } from "../accounts/sign-up.server";
import { DomainError } from "~/shared/domain-error";
import { getEnv } from "~/infra/env.server";
import { placesServed } from "~/shared/jurisdictions";
import { utcDay } from "../rewards/rewards.server";
import { coinsToDecimal } from "~/shared/money";
import { payeeBlock, refuseOwnAccount, sendPayout, tellPlayerOfPayout } from "../money/payouts.server";
import { completeRaffleEarly } from "../raffles/early-completion.server";
import { usernameKey } from "~/shared/username";
import { queuePayoutOutcomeMail } from "../money/mail-notices.server";
import { effectiveLimit, LIMIT_PERIODS, pendingLimit, PERIOD_LABELS, runningExclusion, type LimitPeriod } from "../play-safety/responsible-play.server";

/**
 * The back office's rules. Every action is decided under a row lock (approve racing
 * reject ends in one outcome) and written to the audit log with who, what, when, the
 * target, and the state before and after.
 */
async function audit(actor: string, action: string, target: string, details: Prisma.InputJsonValue) {
  await db().$transaction((tx) => recordAudit(tx, { actor, action, target, details }));
}

/**
 * Where a payout stands after a decision: approved payouts are sent at once and end
 * completed (every refund to a card confirmed), processing (a refund pending at the bank,
 * or a transfer waiting for its reference) or failed (with the reason).
 */
export type PayoutDecision = { status: "completed" | "processing" | "failed" | "rejected" | "awaiting_second_approval" };

/** The second-approver rule counts the player's payouts approved or waiting over this window (PRODUCT.md). */
export const SECOND_APPROVAL_WINDOW_MS = 86_400_000;

/**
 * Approves a pending payout, or records the first of two approvals when the player's
 * payouts approved or waiting in the last 24 hours, this one included, exceed the
 * configured amount. `bulk`: approve only what one approval settles; anything either
 * rule holds back is refused and nothing is recorded.
 */
export async function approvePayout(adminId: string, withdrawalId: string, now = new Date(), { bulk = false } = {}): Promise<PayoutDecision> {
  const decided = await db().$transaction(async (tx): Promise<PayoutDecision | "approved"> => {
    const w = await lockWithdrawal(tx, withdrawalId);
    if (!w) throw new DomainError("withdrawal_not_found", "Payout not found");
    if (w.status !== "pending") throw new DomainError("withdrawal_decided", `This payout is already ${w.status}`);
    refuseOwnAccount(adminId, w.userId);
    // The player's row, after the withdrawal's (sendPayout's order): the player's
    // approvals are counted one at a time.
    await lockUser(tx, w.userId);
    const user = await userStanding(tx, w.userId);
    if (!user) throw new DomainError("user_not_found", "Player not found");
    const blocked = payeeBlock(user);
    if (blocked) throw new DomainError("payee_blocked", `${blocked}: nothing is paid to it`);
    if (w.requiresVerification && !user.identityVerifiedAt) {
      throw new DomainError("verification_required", "Verify the player's identity before approving this payout");
    }
    const threshold = BigInt(getEnv().PAYOUT_SECOND_APPROVAL_ABOVE_CENTS);
    // Pending ones count already, so this one is in the total.
    if ((await payingSince(tx, w.userId, new Date(now.getTime() - SECOND_APPROVAL_WINDOW_MS))) > threshold) {
      if (bulk) throw new DomainError("second_approver_required", "Two admins must approve this payout: bulk approval leaves it");
      if (!w.firstApproverId) {
        await updateWithdrawal(tx, w.id, { firstApproverId: adminId });
        await recordAudit(tx, {
          actor: adminId,
          action: "payout.first_approval",
          target: `withdrawal:${w.id}`,
          details: { before: { status: "pending" }, after: { status: "pending", firstApproverId: adminId }, amount: w.amount.toString() },
        });
        return { status: "awaiting_second_approval" };
      }
      if (w.firstApproverId === adminId) {
        throw new DomainError("second_approver_required", "A second, different admin must approve this payout");
      }
    }
    await updateWithdrawal(tx, w.id, { status: "approved", decidedById: adminId, decidedAt: now });
    await recordAudit(tx, {
      actor: adminId,
      action: "payout.approve",
      target: `withdrawal:${w.id}`,
      details: { before: { status: "pending" }, after: { status: "approved" }, amount: w.amount.toString() },
    });
    return "approved";
  });
  if (decided !== "approved") return decided;
  // Sent after the decision commits: a crash in between leaves it approved, and the sweep sends it.
  await sendPayout(withdrawalId, now);
  const status = await withdrawalStatus(withdrawalId);
  return { status: status === "approved" ? "processing" : (status as PayoutDecision["status"]) };
}

export async function rejectPayout(adminId: string, withdrawalId: string, reason: string, now = new Date()): Promise<PayoutDecision> {
  return db().$transaction(async (tx) => {
    const w = await lockWithdrawal(tx, withdrawalId);
    if (!w) throw new DomainError("withdrawal_not_found", "Payout not found");
    if (w.status !== "pending") throw new DomainError("withdrawal_decided", `This payout is already ${w.status}`);
    refuseOwnAccount(adminId, w.userId);
    await postTransaction(tx, {
      kind: "withdrawal_release",
      reference: `withdrawal-release:${w.id}`,
      userId: w.userId,
      postings: [
        { accountId: await userAccountId(tx, w.userId, "withdrawal_hold"), amount: -w.amount },
        { accountId: await userAccountId(tx, w.userId), amount: w.amount },
      ],
    });
    await updateWithdrawal(tx, w.id, { status: "rejected", decidedById: adminId, decidedAt: now, rejectReason: reason, failureReason: reason });
    for (const leg of await lockLegs(tx, w.id)) await updateLeg(tx, leg.id, { status: "failed", failureReason: reason, settledAt: now });
    await tellPlayerOfPayout(tx, w.userId, w.id);
    await queuePayoutOutcomeMail(tx, w, { status: "failed", reason, returned: w.amount });
    await recordAudit(tx, {
      actor: adminId,
      action: "payout.reject",
      target: `withdrawal:${w.id}`,
      details: { before: { status: "pending" }, after: { status: "rejected" }, reason, amount: w.amount.toString() },
    });
    return { status: "rejected" };
  });
}

/**
 * Records a verification done outside the site (documents seen by support, a check by
 * another provider), with the admin's reason, in the audit log (ADR 080). The site's own
 * checks go through the identity provider (app/services/accounts/identity.server.ts).
 */
export async function verifyIdentity(adminId: string, userId: string, reason: string, now = new Date()) {
  refuseOwnAccount(adminId, userId);
  await db().$transaction(async (tx) => {
    await lockUser(tx, userId);
    const before = await userStanding(tx, userId);
    if (!before) throw new DomainError("user_not_found", "Player not found");
    await setIdentityVerifiedAt(tx, userId, before.identityVerifiedAt ?? now);
    await recordOutsideCheck(tx, { userId, recordedById: adminId, reason, decidedAt: now });
    await recordAudit(tx, {
      actor: adminId,
      action: "user.verify_identity",
      target: `user:${userId}`,
      details: {
        before: { identityVerifiedAt: before.identityVerifiedAt?.toISOString() ?? null },
        after: { identityVerifiedAt: (before.identityVerifiedAt ?? now).toISOString() },
        outsideTheSite: true,
        reason,
      },
    });
  });
}

export async function suspendUser(adminId: string, userId: string, suspended: boolean) {
  refuseOwnAccount(adminId, userId);
  if (!(await userStanding(db(), userId))) throw new DomainError("user_not_found", "Player not found");
  await setSuspension(adminId, userId, suspended);
}

export async function completeRaffle(adminId: string, raffleId: string) {
  // With the beacon turned off on purpose, an early end would let the seed alone decide at a moment an insider picks (issue 34).
  if (getEnv().beaconOff) throw new DomainError("raffle_closed", "Draws are not joined to a beacon (BEACON_URLS=off): no raffle can be completed early");
  const outcome = await completeRaffleEarly(raffleId, adminId);
  if (!outcome) throw new DomainError("raffle_closed", "This raffle is no longer active");
  const after =
    outcome.outcome === "closed"
      ? { status: "closed", closedAt: outcome.closedAt.toISOString(), beaconRound: outcome.beaconRound }
      : { status: outcome.outcome };
  await audit(adminId, "raffle.complete_early", `raffle:${raffleId}`, { before: { status: "active" }, after });
  return outcome;
}

const dollars = (coins: bigint) => coinsToDecimal(coins);

/** What came in and stayed: charged, less what refunds and disputes took back (cents). */
const kept = (money: { charged: bigint; refunded: bigint; disputed: bigint }) => money.charged - money.refunded - money.disputed;

/**
 * The back office's figures, in dollars: revenue is the money that came in by card (coin
 * packages and VIP, as charged, less refunds and disputes, by the day the payment was
 * charged), payouts the money that went out (the ledger's payouts account), profit the
 * difference. What the site still owes its players stands beside them: their cash
 * (withdrawable, including what is held for withdrawals not yet paid) and their bonus
 * coins (play only, never paid out: a count of coins, not dollars).
 */
export async function dashboard(now = new Date()) {
  const day = utcDay(now);
  const week = new Date(day.getTime() - 6 * 86_400_000);
  const month = new Date(day.getTime() - 29 * 86_400_000);
  const [users, active, pending, totals, allTime, daily, weekly, monthly, refundedOut] = await Promise.all([
    admin.countUsers(),
    admin.countActiveRaffles(),
    admin.pendingWithdrawals(),
    admin.accountTotals(),
    admin.moneyInSince(new Date(0)),
    admin.moneyInSince(day),
    admin.moneyInSince(week),
    admin.moneyInSince(month),
    admin.refundedByWithdrawals(),
  ]);
  const balance = (kind: string) => totals[kind] ?? 0n;
  const paidOut = balance("payouts");
  return {
    overview: {
      totalUsers: users,
      totalRevenue: dollars(kept(allTime)),
      totalProfits: dollars(kept(allTime) - paidOut),
      activeRaffles: active,
      totalCharged: dollars(allTime.charged),
      totalRefunded: dollars(allTime.refunded),
      totalDisputed: dollars(allTime.disputed),
      // Every cent withdrawals sent: transfers and refunds to cards (the refunds are off revenue already).
      totalPayouts: dollars(paidOut + refundedOut),
    },
    liabilities: {
      playerCash: dollars(balance("user") + balance("withdrawal_hold")),
      heldForWithdrawals: dollars(balance("withdrawal_hold")),
      playerBonusCoins: Number(balance("user_bonus")),
    },
    revenue: { daily: dollars(kept(daily)), weekly: dollars(kept(weekly)), monthly: dollars(kept(monthly)) },
    payouts: pendingPayouts(pending, now),
  };
}

/** The payout queue and its total. */
function pendingPayouts(pending: Awaited<ReturnType<typeof admin.pendingWithdrawals>>, now: Date) {
  return { pending: pending.map(payoutView(now)), pendingAmount: dollars(pending.reduce((sum, w) => sum + w.amount, 0n)) };
}

/** The payouts tab: the pending queue with its total, the approved transfers waiting for their reference, and the refunds held for review. */
export async function payoutsTab(now = new Date()) {
  const [pending, transfers, reviews] = await Promise.all([admin.pendingWithdrawals(), listTransfersAwaitingReference(now), listRefundsInReview(now)]);
  const threshold = BigInt(getEnv().PAYOUT_SECOND_APPROVAL_ABOVE_CENTS);
  const paying = await payingSinceByUser([...new Set(pending.map((w) => w.user.id))], new Date(now.getTime() - SECOND_APPROVAL_WINDOW_MS));
  const queue = pendingPayouts(pending, now);
  // Two approvals when the player's payouts of the last 24 hours pass the amount (PRODUCT.md).
  const rows = queue.pending.map((p) => ({ ...p, needsTwoApprovals: (paying.get(p.userId) ?? 0n) > threshold }));
  return { ...queue, pending: rows, transfers, reviews };
}

export const payoutView = (now: Date) => (w: Awaited<ReturnType<typeof admin.pendingWithdrawals>>[number]) => ({
  id: w.id,
  userId: w.user.id,
  player: w.user.username ?? w.user.email,
  amount: dollars(w.amount),
  method: w.method,
  destination: w.method ? w.destinationMasked : "Back to the player's cards",
  status: w.status,
  requiresVerification: w.requiresVerification && !w.user.identityVerifiedAt,
  awaitingSecondApproval: w.firstApproverId !== null,
  // Nothing is paid to an account that is suspended or flagged: the reason, shown in the queue.
  blocked: payeeBlock(w.user),
  ageMinutes: Math.floor((now.getTime() - w.createdAt.getTime()) / 60_000),
  createdAt: w.createdAt.toISOString(),
});

/** Approved payouts' transfers an admin must send by hand and record (oldest first). */
export async function listTransfersAwaitingReference(now = new Date()) {
  return (await transfersAwaitingReference()).map((t) => ({
    legId: t.id,
    withdrawalId: t.withdrawal.id,
    player: t.withdrawal.user.username ?? t.withdrawal.user.email,
    amount: dollars(t.amount),
    method: t.withdrawal.method,
    destination: t.withdrawal.destinationMasked,
    blocked: payeeBlock(t.withdrawal.user),
    ageMinutes: Math.floor((now.getTime() - t.createdAt.getTime()) / 60_000),
  }));
}

/** Refunds the provider refused, held until an admin reconciles them with it, oldest first. */
export async function listRefundsInReview(now = new Date()) {
  return (await refundsInReview()).map((r) => ({
    legId: r.id,
    withdrawalId: r.withdrawal.id,
    player: r.withdrawal.user.username ?? r.withdrawal.user.email,
    amount: dollars(r.amount),
    payment: r.payment && { id: r.payment.providerPaymentId, amount: dollars(BigInt(r.payment.amountCents)), paidAt: r.payment.createdAt.toISOString() },
    reason: r.failureReason ?? "refused by the provider",
    ageMinutes: Math.floor((now.getTime() - r.createdAt.getTime()) / 60_000),
  }));
}

export async function listPayouts(now = new Date()) {
  return (await admin.pendingWithdrawals()).map(payoutView(now));
}

/** The users tab's search from its address: `q` (up to 100 characters) and `page` (0 to 10,000; anything else is 0 or 10,000). */
export function usersSearch(params: URLSearchParams): { q: string; page: number } {
  const page = Number.parseInt(params.get("page") ?? "0", 10);
  return { q: (params.get("q") ?? "").slice(0, 100), page: Number.isFinite(page) ? Math.max(0, Math.min(10_000, page)) : 0 };
}

export async function listUsers(query: string, page: number, pageSize = 25, now = new Date()) {
  const [users, total] = await admin.searchUsers(query, usernameKey(query), page, pageSize);
  const mayPlay = await admin.playersWhoMayPlay(
    users.map((u) => u.id),
    placesServed(getEnv().ALLOWED_COUNTRIES),
  );
  return {
    total,
    page,
    pageSize,
    users: users.map((u) => ({
      id: u.id,
      email: u.email,
      username: u.username,
      /** One of the demo crowd's simulated players. */
      isDemo: u.isDemo,
      coinBalance: Number(u.accounts.reduce((sum, a) => sum + a.balance, 0n)),
      cashBalance: Number(u.accounts.find((a) => a.kind === "user")?.balance ?? 0n),
      totalWinnings: Number(u.totalWinnings),
      vipTier: u.vipExpiry && u.vipExpiry > new Date() ? u.vipTier : null,
      isAdmin: u.isAdmin,
      suspended: u.suspendedAt !== null,
      flagged: u.flagReason,
      // The flag an admin clears is the one they saw: its time goes with the form.
      flaggedAt: u.flaggedAt?.toISOString() ?? null,
      identityVerified: u.identityVerifiedAt !== null,
      residence: u.region ?? u.country,
      // Where the player lives is no longer served (ALLOWED_COUNTRIES changed): play and buying are closed.
      playClosed: !u.isAdmin && !mayPlay.has(u.id),
      // What the player chose to protect themselves (read-only here).
      limits: (Object.keys(LIMIT_PERIODS) as LimitPeriod[]).flatMap((period) => {
        const row = u.depositLimits.find((l) => l.period === period);
        const limit = effectiveLimit(row, now);
        const waiting = pendingLimit(row, now);
        const pending = waiting && { amount: waiting.amountCents === null ? null : dollars(BigInt(waiting.amountCents)), from: waiting.from.toISOString() };
        return limit === null && !pending ? [] : [{ period: PERIOD_LABELS[period], amount: limit === null ? null : dollars(BigInt(limit)), pending }];
      }),
      exclusion: runningExclusion(u, now),
      realityCheckMinutes: u.realityCheckMinutes,
      createdAt: u.createdAt.toISOString(),
    })),
  };
}

/**
 * The raffles tab: every active raffle and those drawn in the last day, newest first. Rounds
 * cancelled with no entry at all (most quick rounds at a quiet hour) are left out unless
 * asked for, so that the rounds that mattered are not buried.
 */
export async function listRafflesForAdmin({ showEmpty = false }: { showEmpty?: boolean } = {}) {
  return (await admin.recentRaffles({ showEmpty })).map((r) => ({
    id: r.id,
    kind: r.kind,
    tier: r.tier,
    status: r.status,
    entryPrice: dollars(r.entryPrice),
    currentPot: dollars(r.status === "active" ? r.pots.reduce((sum, pot) => sum + pot.balance, 0n) : (r.finalPot ?? 0n)),
    tickets: r.ticketCount,
    players: r.playerCount,
    startTime: r.startsAt.toISOString(),
    endTime: r.endsAt.toISOString(),
    drawnAt: r.drawnAt?.toISOString() ?? null,
    winner: r.winner ? (r.winner.username ?? r.winner.email) : null,
    prize: r.prize === null ? null : dollars(r.prize),
    /** Closed early and waiting for its beacon round: no second completion. */
    closedEarly: r.status === "active" && r.closedAt !== null,
    outcome: raffleOutcome(r),
  }));
}

/** What became of a raffle, in words: still open, who won what, or why it was cancelled. */
function raffleOutcome(r: {
  status: string;
  closedAt: Date | null;
  beaconRound: bigint | null;
  ticketCount: number;
  playerCount: number;
  prize: bigint | null;
  winner: { username: string | null; email: string } | null;
}): string {
  if (r.status === "active") return r.closedAt ? `closed early: waiting for beacon round ${r.beaconRound}` : "open";
  if (r.status === "completed") return `${r.winner ? (r.winner.username ?? r.winner.email) : "a player"} won $${dollars(r.prize ?? 0n)}`;
  if (r.ticketCount === 0) return "cancelled: no entries";
  return `cancelled: ${r.playerCount} player, ${r.ticketCount} ticket${r.ticketCount === 1 ? "" : "s"} refunded`;
}

/** The ledger reconciliation: every account kind's total; the sum of all must be zero. */
export async function reconciliation() {
  const totals = await admin.accountTotals();
  const sum = Object.values(totals).reduce((a, b) => a + b, 0n);
  return { totals: Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, dollars(v)])), sum: dollars(sum), balanced: sum === 0n };
}

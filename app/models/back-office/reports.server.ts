import type { Prisma, User } from "~/generated/prisma/client";
import type { Places } from "~/shared/jurisdictions";
import { db } from "../db.server";
import { CHARGED_STATUSES } from "../money/payment.server";

/** Read models for the back office (admins only: every caller has passed requireAdmin). */
export function pendingWithdrawals() {
  return db().withdrawal.findMany({
    where: { status: "pending" },
    orderBy: { createdAt: "asc" },
    take: 200,
    select: {
      id: true,
      amount: true,
      method: true,
      destinationMasked: true,
      requiresVerification: true,
      firstApproverId: true,
      createdAt: true,
      status: true,
      user: { select: { id: true, username: true, email: true, identityVerifiedAt: true, suspendedAt: true, flaggedAt: true, flagReason: true } },
    },
  });
}

/** `query` matches emails; `usernameQueryKey` (the query's username key) matches usernames and their look-alikes. */
export function searchUsers(query: string, usernameQueryKey: string, page: number, pageSize: number) {
  const where: Prisma.UserWhereInput = query ? { OR: [{ email: { contains: query.toLowerCase() } }, { usernameKey: { contains: usernameQueryKey } }] } : {};
  return db().$transaction([
    db().user.findMany({
      where,
      orderBy: { createdAt: "desc" },
      skip: page * pageSize,
      take: pageSize,
      select: {
        id: true,
        email: true,
        username: true,
        isDemo: true,
        totalWinnings: true,
        vipTier: true,
        vipExpiry: true,
        isAdmin: true,
        suspendedAt: true,
        flaggedAt: true,
        flagReason: true,
        identityVerifiedAt: true,
        excludedUntil: true,
        exclusionKind: true,
        realityCheckMinutes: true,
        country: true,
        region: true,
        createdAt: true,
        accounts: { where: { kind: { in: ["user", "user_bonus"] } }, select: { kind: true, balance: true } },
        depositLimits: { select: { period: true, amountCents: true, pendingAmountCents: true, pendingRemoval: true, pendingFrom: true } },
      },
    }),
    db().user.count({ where }),
  ]);
}

/** Of these players, the ones whose home is still a place served (may_play_from, the one statement of that rule). */
export async function playersWhoMayPlay(userIds: string[], places: Places): Promise<Set<string>> {
  const rows = await db().$queryRaw<Pick<User, "id">[]>`
    SELECT id::text AS id FROM users
    WHERE id = ANY(${userIds}::uuid[]) AND may_play_from(country, region, ${places.countries}::text[], ${places.regions}::text[])`;
  return new Set(rows.map((row) => row.id));
}

/** Active raffles, then those drawn in the last day (newest first); rounds cancelled empty only with `showEmpty`. */
export function recentRaffles({ take = 100, showEmpty = false }: { take?: number; showEmpty?: boolean } = {}) {
  const recent: Prisma.RaffleWhereInput = { OR: [{ status: "active" }, { drawnAt: { gte: new Date(Date.now() - 86_400_000) } }] };
  return db().raffle.findMany({
    orderBy: [{ status: "asc" }, { endsAt: "desc" }],
    take,
    select: {
      id: true,
      kind: true,
      tier: true,
      status: true,
      entryPrice: true,
      ticketCount: true,
      playerCount: true,
      startsAt: true,
      endsAt: true,
      drawnAt: true,
      closedAt: true,
      beaconRound: true,
      prize: true,
      finalPot: true,
      pots: { select: { balance: true } },
      winner: { select: { username: true, email: true } },
    },
    where: showEmpty ? recent : { AND: [recent, { NOT: { status: "cancelled", ticketCount: 0 } }] },
  });
}

export async function accountTotals() {
  const rows = await db().ledgerAccount.groupBy({ by: ["kind"], _sum: { balance: true } });
  return Object.fromEntries(rows.map((r) => [r.kind, r._sum.balance ?? 0n])) as Record<string, bigint>;
}

/**
 * Money in: what card payments settled since `since` charged (coin packages and VIP), and
 * what refunds and disputes have taken back of them so far, in cents.
 */
export async function moneyInSince(since: Date) {
  const [row] = await db().$queryRaw<{ charged: bigint; refunded: bigint; disputed: bigint }[]>`
    SELECT coalesce(sum(amount_cents), 0)::bigint AS charged,
           coalesce(sum(refunded_cents), 0)::bigint AS refunded,
           coalesce(sum(disputed_cents), 0)::bigint AS disputed
    FROM payments
    WHERE status = ANY(${CHARGED_STATUSES}::"PaymentStatus"[]) AND settled_at >= ${since}`;
  return row!;
}

/**
 * Money in by period (`day`, `week` starting Monday, or `month`, in UTC) since `since`:
 * what card payments charged less what refunds and disputes took back, by the period in
 * which each payment was charged (cents). Periods without a payment are absent.
 */
export function moneyInByPeriod(unit: "day" | "week" | "month", since: Date) {
  return db().$queryRaw<{ period: Date; kept: bigint }[]>`
    SELECT date_trunc(${unit}, settled_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS period,
           coalesce(sum(amount_cents - refunded_cents - disputed_cents), 0)::bigint AS kept
    FROM payments
    WHERE status = ANY(${CHARGED_STATUSES}::"PaymentStatus"[]) AND settled_at >= ${since}
    GROUP BY 1 ORDER BY 1`;
}

export function countUsers() {
  return db().user.count();
}

export function countActiveRaffles() {
  return db().raffle.count({ where: { status: "active" } });
}

/** What withdrawals paid back to players' cards (refund legs completed), in cents: money out, as transfers are. */
export async function refundedByWithdrawals(): Promise<bigint> {
  const sum = await db().payoutLeg.aggregate({ where: { kind: "card_refund", status: "completed" }, _sum: { amount: true } });
  return sum._sum.amount ?? 0n;
}

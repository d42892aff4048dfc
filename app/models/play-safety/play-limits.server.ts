import type { User } from "~/generated/prisma/client";
import type { Places } from "~/shared/jurisdictions";
import { db, type Tx } from "../db.server";

export function setRealityCheckMinutes(tx: Tx, userId: string, minutes: number | null) {
  return tx.user.update({ where: { id: userId }, data: { realityCheckMinutes: minutes }, select: { id: true } });
}
import { CHARGED_STATUSES } from "../money/payment.server";

export type LimitRow = {
  period: string;
  amountCents: number | null;
  pendingAmountCents: number | null;
  pendingRemoval: boolean;
  pendingFrom: Date | null;
};

export function limitsOf(userId: string, client: Tx = db()): Promise<LimitRow[]> {
  return client.depositLimit.findMany({
    where: { userId },
    select: { period: true, amountCents: true, pendingAmountCents: true, pendingRemoval: true, pendingFrom: true },
  });
}

export function saveLimit(tx: Tx, userId: string, period: string, data: Omit<LimitRow, "period">) {
  return tx.depositLimit.upsert({
    where: { userId_period: { userId, period } },
    create: { userId, period, ...data },
    update: { ...data, updatedAt: new Date() },
  });
}

/**
 * Card payments charged since `since` (coins and VIP), in cents, and the oldest one's time.
 * A charge counts whatever happened to it later: a refund or a dispute (or a withdrawal
 * paid back to the card) gives no room back, or depositing, being refunded and depositing
 * again would go round a limit. With `unfinishedSince`, payments started since then and
 * not finished count too (`unfinished` of the total), whatever the period: their amount is
 * held until they succeed or fail.
 */
export async function depositsSince(userId: string, since: Date, { unfinishedSince, client = db() }: { unfinishedSince?: Date; client?: Tx } = {}) {
  const [row] = await client.$queryRaw<{ total: bigint; unfinished: bigint; oldest: Date | null }[]>`
    SELECT coalesce(sum(amount_cents), 0)::bigint AS total,
           coalesce(sum(amount_cents) FILTER (WHERE status = 'pending'), 0)::bigint AS unfinished,
           min(settled_at) FILTER (WHERE status = ANY(${CHARGED_STATUSES}::"PaymentStatus"[])) AS oldest
    FROM payments
    WHERE user_id = ${userId}::uuid
      AND ((status = ANY(${CHARGED_STATUSES}::"PaymentStatus"[]) AND settled_at > ${since})
           OR (${unfinishedSince !== undefined} AND status = 'pending' AND created_at >= ${unfinishedSince ?? since}))`;
  return { total: Number(row!.total), unfinished: Number(row!.unfinished), oldest: row!.oldest };
}

/** The player's break or exclusion (its end in the past once it is over), or null for no such player. */
export function exclusionOf(userId: string, client: Tx = db()) {
  return client.user.findUnique({ where: { id: userId }, select: { excludedUntil: true, exclusionKind: true } });
}

/**
 * What decides whether the player may play and buy now: a break or exclusion, and whether
 * the place they live is still served (may_play_from, the one statement of that rule).
 */
export async function playGateOf(userId: string, places: Places, client: Tx = db()) {
  const [row] = await client.$queryRaw<(Pick<User, "excludedUntil" | "exclusionKind"> & { mayPlay: boolean })[]>`
    SELECT excluded_until AS "excludedUntil", exclusion_kind AS "exclusionKind",
           may_play_from(country, region, ${places.countries}::text[], ${places.regions}::text[]) AS "mayPlay"
    FROM users WHERE id = ${userId}::uuid`;
  return row;
}

export function setExclusion(tx: Tx, userId: string, excludedUntil: Date, exclusionKind: string) {
  return tx.user.update({ where: { id: userId }, data: { excludedUntil, exclusionKind } });
}

import { assertIdentityForDeposit } from "./identity-gate.server";
import { recordAudit } from "~/models/back-office/audit-event.server";
import { db, type Tx } from "~/models/db.server";
import { nonZero, postTransaction, userAccountId } from "~/models/money/ledger.server";
import { lockRaffle, potAccounts } from "~/models/raffles/raffle.server";
import { PENDING_PAYMENT_HORIZON_MS } from "~/models/money/payment.server";
import * as rp from "~/models/play-safety/play-limits.server";
import * as entries from "~/models/raffles/entry.server";
import { lockUser } from "~/models/accounts/user.server";
import { DomainError } from "~/shared/domain-error";
import { coinsToDecimal } from "~/shared/money";
import { BREAKS, EXCLUSIONS, LIMIT_HINT, MAX_LIMIT_CENTS, type ExclusionChoice } from "~/shared/responsible-play-options";
import { utcMinute } from "~/shared/dates";
import { queueMail } from "~/infra/mail/outbox.server";
import { queueLimitMail } from "../money/mail-notices.server";
import { takeTicketsBack } from "../raffles/tickets-taken-back.server";
import { getEnv } from "~/infra/env.server";
import * as readModel from "~/infra/read-model.server";
import { JURISDICTION_CLOSED_MESSAGE, placesServed } from "~/shared/jurisdictions";

/**
 * Deposit limits, breaks and self-exclusion (what regulated operators must offer).
 * Limits: a decrease applies at once, an increase or removal only after 24 hours.
 * Breaks and exclusions can be lengthened, never shortened; while one runs the player
 * can sign in, see their balance and withdraw, but not play or buy.
 */
export const LIMIT_PERIODS = { day: 24, week: 7 * 24, month: 30 * 24 } as const;
export type LimitPeriod = keyof typeof LIMIT_PERIODS;
export const PERIOD_LABELS: Record<LimitPeriod, string> = { day: "24-hour", week: "7-day", month: "30-day" };
export const INCREASE_DELAY_MS = 24 * 60 * 60 * 1000;

const hours = (period: LimitPeriod) => LIMIT_PERIODS[period] * 3_600_000;
/** Unfinished payments older than the horizon are left to support and hold nothing. */
const unfinishedSince = (now: Date) => new Date(now.getTime() - PENDING_PAYMENT_HORIZON_MS);

/** The limit in force at `now` (a pending change whose time has come applies). */
export function effectiveLimit(row: rp.LimitRow | undefined, now: Date): number | null {
  if (!row) return null;
  if (row.pendingFrom && row.pendingFrom <= now) return row.pendingRemoval ? null : row.pendingAmountCents;
  return row.amountCents;
}

/** A raised or removed limit still waiting for its 24 hours (null amount: removal). */
export function pendingLimit(row: rp.LimitRow | undefined, now: Date): { amountCents: number | null; from: Date } | null {
  if (!row?.pendingFrom || row.pendingFrom <= now) return null;
  return { amountCents: row.pendingRemoval ? null : row.pendingAmountCents, from: row.pendingFrom };
}

/** The break or self-exclusion running at `now`, if any. */
export function runningExclusion(user: { excludedUntil: Date | null; exclusionKind: string | null }, now: Date) {
  if (!user.excludedUntil || user.excludedUntil <= now) return null;
  return { kind: user.exclusionKind === "self_exclusion" ? ("self_exclusion" as const) : ("break" as const), until: user.excludedUntil.toISOString() };
}

export async function setDepositLimit(userId: string, period: LimitPeriod, amountCents: number | null, now = new Date()) {
  if (amountCents !== null && (!Number.isInteger(amountCents) || amountCents <= 0 || amountCents > MAX_LIMIT_CENTS)) {
    throw new DomainError("invalid_input", LIMIT_HINT);
  }
  return db().$transaction(async (tx) => {
    await lockUser(tx, userId);
    const row = (await rp.limitsOf(userId, tx)).find((r) => r.period === period);
    const current = effectiveLimit(row, now);
    const tighter = amountCents !== null && (current === null || amountCents <= current);
    const data = tighter
      ? { amountCents, pendingAmountCents: null, pendingRemoval: false, pendingFrom: null }
      : {
          amountCents: current,
          pendingAmountCents: amountCents,
          pendingRemoval: amountCents === null,
          pendingFrom: new Date(now.getTime() + INCREASE_DELAY_MS),
        };
    await rp.saveLimit(tx, userId, period, data);
    await recordAudit(tx, {
      actor: userId,
      action: "limits.deposit",
      target: `user:${userId}`,
      details: { period, before: current, requested: amountCents, immediate: tighter },
    });
    await queueLimitMail(tx, userId, { period: PERIOD_LABELS[period], cents: amountCents, from: tighter ? now : data.pendingFrom! });
    return { immediate: tighter, effectiveFrom: tighter ? now : data.pendingFrom! };
  });
}

export async function depositLimits(userId: string, now = new Date()) {
  const rows = await rp.limitsOf(userId);
  return Promise.all(
    (Object.keys(LIMIT_PERIODS) as LimitPeriod[]).map(async (period) => {
      const row = rows.find((r) => r.period === period);
      const limit = effectiveLimit(row, now);
      const pending = pendingLimit(row, now);
      // As checkDeposit counts it: payments not yet finished hold their amount.
      const used = (await rp.depositsSince(userId, new Date(now.getTime() - hours(period)), { unfinishedSince: unfinishedSince(now) })).total;
      return { period, label: PERIOD_LABELS[period], limitCents: limit, usedCents: used, pending };
    }),
  );
}

/** Before a player's first purchase, and only while they have set no limit: offer them. */
export async function shouldOfferLimits(userId: string): Promise<boolean> {
  const [limits, deposits] = await Promise.all([rp.limitsOf(userId), rp.depositsSince(userId, new Date(0))]);
  return limits.length === 0 && deposits.total === 0;
}

/** Refused while a break or exclusion runs, or where the player lives is no longer served. */
export async function assertMayPlay(userId: string, now = new Date(), client?: Tx) {
  // Inside a transaction, use its connection: asking the pool for another can starve it.
  const gate = await rp.playGateOf(userId, placesServed(getEnv().ALLOWED_COUNTRIES), client);
  if (gate?.excludedUntil && gate.excludedUntil > now) throw exclusionError(gate.excludedUntil, gate.exclusionKind);
  if (gate && !gate.mayPlay) throw jurisdictionError();
}

/** What a player is told when the place they live is no longer one the site serves. */
export const jurisdictionError = () => new DomainError("jurisdiction", JURISDICTION_CLOSED_MESSAGE);

/** What a player on a break or excluded is told when they try to play or buy. */
export function exclusionError(until: Date, kind: string | null): DomainError {
  return new DomainError(
    "excluded",
    `${kind === "self_exclusion" ? "You have excluded yourself" : "You are taking a break"} until ${utcMinute(until)}. Playing and buying are paused; you can still see your balance and withdraw.`,
  );
}

/**
 * Before any payment is attempted: breaks, then every limit, with the limit named and when
 * it resets. Payments started and not finished count as used (the payment sweep cancels
 * one left unpaid for 30 minutes). Run it under the player's lock (lockPlayerForPayment)
 * with `client` that lock's transaction, and record the payment in it, so that two checks
 * never pass together.
 */
export async function checkDeposit(userId: string, amountCents: number, now = new Date(), client?: Tx, { countUnfinished = true } = {}) {
  await assertMayPlay(userId, now, client);
  await assertIdentityForDeposit(userId, client);
  const rows = await rp.limitsOf(userId, client);
  for (const period of Object.keys(LIMIT_PERIODS) as LimitPeriod[]) {
    const limit = effectiveLimit(
      rows.find((r) => r.period === period),
      now,
    );
    if (limit === null) continue;
    const { total, unfinished, oldest } = await rp.depositsSince(userId, new Date(now.getTime() - hours(period)), {
      unfinishedSince: countUnfinished ? unfinishedSince(now) : undefined,
      client,
    });
    if (total + amountCents > limit) {
      const inFlight = unfinished > 0 ? `, $${coinsToDecimal(BigInt(unfinished))} of it in payments not yet finished` : "";
      const resets = oldest
        ? `It resets at ${utcMinute(new Date(oldest.getTime() + hours(period)))}.`
        : "It frees up as those payments finish; one left unpaid is canceled after 30 minutes.";
      throw new DomainError(
        "deposit_limit",
        `This purchase would go over your ${PERIOD_LABELS[period]} deposit limit of $${coinsToDecimal(BigInt(limit))} ($${coinsToDecimal(BigInt(total))} used${inFlight}). ${resets}`,
      );
    }
  }
}

const exclusionOption = (choice: ExclusionChoice) => (choice in BREAKS ? BREAKS[choice as keyof typeof BREAKS] : EXCLUSIONS[choice as keyof typeof EXCLUSIONS]);

/**
 * The one thing an admin may do to a player's protections: lengthen a break or
 * exclusion that is running (never start, shorten or lift one; limits are the player's).
 */
export async function extendExclusionByAdmin(adminId: string, userId: string, choice: ExclusionChoice, now = new Date()) {
  const option = exclusionOption(choice);
  if (!option) throw new DomainError("invalid_input", "Choose a break or exclusion period");
  const until = new Date(now.getTime() + option.days * 86_400_000);
  return db().$transaction(async (tx) => {
    await lockUser(tx, userId);
    const current = await rp.exclusionOf(userId, tx);
    if (!current) throw new DomainError("user_not_found", "Player not found");
    if (!current.excludedUntil || current.excludedUntil <= now) {
      throw new DomainError("invalid_input", "This player has no break or exclusion running. Only the player can start one.");
    }
    if (until <= current.excludedUntil) {
      throw new DomainError("invalid_input", `That would not extend it: it already runs until ${utcMinute(current.excludedUntil)}.`);
    }
    const kind = option.kind === "self_exclusion" ? "self_exclusion" : (current.exclusionKind ?? "break");
    await rp.setExclusion(tx, userId, until, kind);
    await recordAudit(tx, {
      actor: adminId,
      action: "responsible.extend_exclusion",
      target: `user:${userId}`,
      details: { before: { until: current.excludedUntil.toISOString(), kind: current.exclusionKind }, after: { until: until.toISOString(), kind } },
    });
    return { until, kind };
  });
}

/** A break or self-exclusion; refunds every ticket in raffles not yet drawn, at once. */
export async function excludeSelf(userId: string, choice: ExclusionChoice, now = new Date()) {
  const option = exclusionOption(choice);
  if (!option) throw new DomainError("invalid_input", "Choose a break or exclusion period");
  const until = new Date(now.getTime() + option.days * 86_400_000);
  const current = await rp.exclusionOf(userId);
  if (current?.excludedUntil && current.excludedUntil > until) {
    throw new DomainError(
      "excluded",
      `Your current ${current.exclusionKind === "self_exclusion" ? "exclusion" : "break"} runs until ${utcMinute(current.excludedUntil)} and cannot be shortened.`,
    );
  }
  await db().$transaction(async (tx) => {
    await rp.setExclusion(tx, userId, until, current?.exclusionKind === "self_exclusion" ? "self_exclusion" : option.kind);
    await recordAudit(tx, { actor: userId, action: `responsible.${option.kind}`, target: `user:${userId}`, details: { until: until.toISOString() } });
    await queueMail(tx, {
      key: `exclusion:${userId}:${now.getTime()}`,
      kind: "exclusion_confirmed",
      userId,
      data: { kind: option.kind, until: utcMinute(until) },
    });
  });
  let refunded = 0;
  for (const { raffleId } of await entries.openEntriesOf(userId)) refunded += await refundOpenEntries(raffleId, userId, now);
  // At once on this instance; the others hear it from the database (removeTickets).
  if (refunded > 0) readModel.ticketsChanged([userId]);
  return { until, refunded };
}

async function refundOpenEntries(raffleId: string, userId: string, now: Date): Promise<number> {
  return db().$transaction(async (tx) => {
    const raffle = await lockRaffle(tx, raffleId);
    if (!raffle || raffle.status !== "active") return 0;
    const removed = await takeTicketsBack(tx, raffleId, userId);
    if (removed.count === 0) return 0;
    // Each ticket goes back in its own mix.
    const pots = await potAccounts(tx, raffleId);
    await postTransaction(tx, {
      kind: "refund",
      reference: `exclusion-refund:${raffleId}:${userId}:${now.getTime()}`,
      userId,
      raffleId,
      memo: "break or exclusion",
      postings: nonZero([
        { accountId: pots.cash, amount: -removed.cash },
        { accountId: await userAccountId(tx, userId), amount: removed.cash },
        { accountId: pots.bonus, amount: -removed.bonus },
        { accountId: await userAccountId(tx, userId, "user_bonus"), amount: removed.bonus },
      ]),
    });
    return removed.count;
  });
}

export async function exclusionStatus(userId: string, now = new Date()) {
  const exclusion = await rp.exclusionOf(userId);
  return exclusion ? runningExclusion(exclusion, now) : null;
}

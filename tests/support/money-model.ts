import type fc from "fast-check";
import { expect } from "vitest";
import { db } from "~/models/db.server";
import { DomainError } from "~/services/domain-error";
import { splitPot } from "~/services/prize";
import { openRaffle, type DrawOutcome } from "~/services/raffles.server";
import { activeVipTier, winMultiplierTenths, type VipTierName } from "~/services/vip";
import { createTestUser, grantCoins } from "./factories";
import { BALANCED, ledgerInvariants, raffleProblems } from "./money-invariants";

/**
 * A model of the money rules, small enough to trust: its state, its set-up, the
 * comparison of the whole database with it, and the draw rules. The commands that move
 * it and the real services side by side are in money-model-commands.ts. Time is the
 * model's clock, passed to every service as `now`.
 */
export type Player = {
  id: string;
  coins: bigint;
  hold: bigint;
  vipTier: VipTierName | null;
  vipExpiry: Date | null;
  lastSpinAt: Date | null;
  claimedDays: Set<number>;
  excludedUntil: Date | null;
  verified: boolean;
};
export type Raffle = {
  id: string;
  entryPrice: bigint;
  startsAt: Date;
  endsAt: Date;
  vipOnly: boolean;
  cap: number;
  status: "active" | "completed" | "cancelled";
  /** Ticket holders in position order. */
  tickets: string[];
};
export type Payment = { id: string; userId: string; purpose: "coins" | "vip"; credited: bigint; status: "succeeded" | "failed" | "refunded" | "disputed" };
export type Withdrawal = { id: string; userId: string; amount: bigint; status: "pending" | "completed" | "rejected"; requiresVerification: boolean; firstApprover: string | null };
export type Model = {
  now: Date;
  /** The clock never passes this (see runBase). */
  end: Date;
  players: Player[];
  admins: string[];
  raffles: Raffle[];
  payments: Payment[];
  withdrawals: Withdrawal[];
};
export type Real = Record<string, never>;
export type Command = fc.AsyncCommand<Model, Real>;

/** How far one run's clock may move. */
export const RUN_SPAN_MS = 50 * 86_400_000;
export const DAY = 86_400_000;

export const pick = <T>(items: T[], index: number): T => items[index % items.length]!;
export const isVip = (p: Player, now: Date) => activeVipTier(p, now) !== null;
export const isExcluded = (p: Player, now: Date) => p.excludedUntil !== null && p.excludedUntil > now;

/** The error code a service call failed with, or "ok" with its value. */
export async function outcome<T>(run: () => Promise<T>): Promise<{ code: "ok"; value: T } | { code: string }> {
  try {
    return { code: "ok", value: await run() };
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code };
    throw error;
  }
}

export function expectCode(result: { code: string }, expected: string, what: string) {
  expect(result.code, what).toBe(expected);
}

// ---- setup and the whole-database check ----

export async function setupModel(base: Date, startingCoins: bigint[]): Promise<{ model: Model; real: Real }> {
  const players: Player[] = [];
  for (const coins of startingCoins) {
    const user = await createTestUser();
    if (coins > 0n) await grantCoins(user.id, coins);
    players.push({ id: user.id, coins, hold: 0n, vipTier: null, vipExpiry: null, lastSpinAt: null, claimedDays: new Set(), excludedUntil: null, verified: false });
  }
  const admins = [(await createTestUser({ isAdmin: true })).id, (await createTestUser({ isAdmin: true })).id];
  const model: Model = { now: base, end: new Date(base.getTime() + RUN_SPAN_MS), players, admins, raffles: [], payments: [], withdrawals: [] };
  await addRaffle(model, { startOffsetMs: -1000, durationMs: 20 * 60_000, entryPrice: 50n, vipOnly: false, cap: 10 });
  await addRaffle(model, { startOffsetMs: -1000, durationMs: 3 * 3_600_000, entryPrice: 5n, vipOnly: false, cap: 3 });
  return { model, real: {} };
}

export async function addRaffle(
  m: Model,
  r: { startOffsetMs: number; durationMs: number; entryPrice: bigint; vipOnly: boolean; cap: number },
) {
  const startsAt = new Date(m.now.getTime() + r.startOffsetMs);
  const endsAt = new Date(startsAt.getTime() + r.durationMs);
  const id = await openRaffle({ kind: "regular", tier: "micro", entryPrice: r.entryPrice, startsAt, endsAt, vipOnly: r.vipOnly, maxTicketsPerPlayer: r.cap });
  m.raffles.push({ id: id!, entryPrice: r.entryPrice, startsAt, endsAt, vipOnly: r.vipOnly, cap: r.cap, status: "active", tickets: [] });
}

/** The database agrees with the model, and the invariants hold. */
export async function checkAgainstModel(m: Model) {
  expect(await ledgerInvariants()).toEqual(BALANCED);
  expect(await raffleProblems(m.raffles.map((r) => r.id))).toEqual([]);

  const ids = m.players.map((p) => p.id);
  const accounts = await db().ledgerAccount.findMany({ where: { userId: { in: ids } }, select: { userId: true, kind: true, balance: true } });
  const balance = (userId: string, kind: "user" | "withdrawal_hold") =>
    accounts.find((a) => a.userId === userId && a.kind === kind)?.balance ?? 0n;
  expect(ids.map((id) => [balance(id, "user"), balance(id, "withdrawal_hold")])).toEqual(m.players.map((p) => [p.coins, p.hold]));

  const raffles = await db().raffle.findMany({
    where: { id: { in: m.raffles.map((r) => r.id) } },
    select: { id: true, status: true, entries: { orderBy: { position: "asc" }, select: { userId: true } } },
  });
  const byId = new Map(raffles.map((r) => [r.id, r]));
  expect(m.raffles.map((r) => ({ status: byId.get(r.id)?.status, tickets: byId.get(r.id)?.entries.map((e) => e.userId) }))).toEqual(
    m.raffles.map((r) => ({ status: r.status, tickets: r.tickets })),
  );

  const withdrawals = await db().withdrawal.findMany({ where: { userId: { in: ids } }, select: { id: true, status: true } });
  expect(new Map(withdrawals.map((w) => [w.id, w.status]))).toEqual(new Map(m.withdrawals.map((w) => [w.id, w.status])));
  const payments = await db().payment.findMany({ where: { userId: { in: ids } }, select: { providerPaymentId: true, status: true } });
  expect(new Map(payments.map((p) => [p.providerPaymentId, p.status]))).toEqual(new Map(m.payments.map((p) => [p.id, p.status])));
}

// ---- draws, shared by the scheduler's pass and the admin's early completion ----

export function applyDraw(m: Model, raffle: Raffle, result: DrawOutcome) {
  const holders = [...new Set(raffle.tickets)];
  expect(result.raffleId).toBe(raffle.id);
  if (holders.length < 2) {
    expect(result).toEqual({ raffleId: raffle.id, outcome: "cancelled", refunded: raffle.tickets.length });
    for (const id of holders) {
      const player = m.players.find((p) => p.id === id)!;
      player.coins += raffle.entryPrice * BigInt(raffle.tickets.filter((t) => t === id).length);
    }
    raffle.status = "cancelled";
    return;
  }
  if (result.outcome !== "completed") throw new Error(`raffle with ${holders.length} players was ${result.outcome}`);
  expect(raffle.tickets[result.winningTicket], "the winner holds the winning ticket").toBe(result.winnerId);
  const winner = m.players.find((p) => p.id === result.winnerId)!;
  const pot = raffle.entryPrice * BigInt(raffle.tickets.length);
  const { prize, rake } = splitPot(pot, winMultiplierTenths(activeVipTier(winner, m.now)));
  expect({ prize: result.prize, rake: result.rake }).toEqual({ prize, rake });
  winner.coins += prize;
  raffle.status = "completed";
}

import fc from "fast-check";
import { expect } from "vitest";
import { db } from "~/models/db.server";
import { DomainError } from "~/shared/domain-error";
import type { CoinMix } from "~/shared/coin-mix";
import { splitPotMix } from "~/shared/prize";
import { openRaffle, type DrawOutcome } from "~/services/raffles/raffles.server";
import { activeVipTier, winMultiplierTenths, type VipTierName } from "~/shared/vip";
import { verifyIdentity } from "~/services/back-office/admin.server";
import { createTestUser } from "./factories";
import { BALANCED, cashOutProblems, ledgerInvariants, raffleProblems } from "./money-invariants";

/**
 * A model of the money rules, small enough to trust: its state, its set-up, the
 * comparison of the whole database with it, and the draw rules. The commands that move
 * it and the real services side by side are in money-model-commands.ts (payouts in
 * money-model-payouts.ts). Time is the
 * model's clock, passed to every service as `now`.
 */
export type Player = {
  id: string;
  email: string;
  /** Whether the person had their welcome coins (once per person; factory players never did). */
  welcomed: boolean;
  /** Withdrawable coins (paid in or won) and play-only coins (given by the house). */
  cash: bigint;
  bonus: bigint;
  hold: bigint;
  vipTier: VipTierName | null;
  vipExpiry: Date | null;
  lastSpinAt: Date | null;
  claimedDays: Set<number>;
  excludedUntil: Date | null;
  /** A self-exclusion (rather than a break): it outlives the account, and a sign-up meanwhile is refused. */
  selfExcluded: boolean;
  verified: boolean;
  /** Flagged for support (a refund or dispute of coins already spent): nothing is paid to them. */
  flagged: boolean;
};
export type Raffle = {
  id: string;
  entryPrice: bigint;
  startsAt: Date;
  endsAt: Date;
  vipOnly: boolean;
  cap: number;
  status: "active" | "completed" | "cancelled";
  /** The tickets in position order: their holder and what each cost in cash and bonus. */
  tickets: Ticket[];
};
export type Ticket = { userId: string } & CoinMix;
export type Payment = {
  id: string;
  userId: string;
  purpose: "coins" | "vip";
  amountCents: number;
  credited: CoinMix;
  refundedCents: number;
  disputedCents: number;
  status: "succeeded" | "failed" | "refunded" | "disputed";
  /** The id of the payment's last dispute: another event of it changes nothing. */
  lastDisputeId?: string;
  /** Its disputes, each with what it took (cents covered, coins) and whether it was won. */
  disputes?: Dispute[];
};
export type Dispute = { id: string; covered: number; cash: bigint; bonus: bigint; won: boolean };
export type Leg = { kind: "card_refund" | "transfer"; paymentId: string | null; amount: bigint; status: "pending" | "processing" | "completed" | "failed" };
export type Withdrawal = {
  id: string;
  userId: string;
  amount: bigint;
  status: "pending" | "processing" | "completed" | "rejected" | "failed";
  requiresVerification: boolean;
  firstApprover: string | null;
  /** When it was asked for, and approved (the thresholds' windows count by these). */
  createdAt: Date;
  decidedAt: Date | null;
  /** Refunds of card payments first (newest first), then the transfer of the rest. */
  legs: Leg[];
};
export type Model = {
  now: Date;
  /** The clock never passes this (see runBase). */
  end: Date;
  players: Player[];
  /** Accounts closed (their person signed up again as the player in their place), kept for the checks. */
  closed: Player[];
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
export const least = (a: bigint, b: bigint) => (a < b ? a : b);
export const isVip = (p: Player, now: Date) => activeVipTier(p, now) !== null;
export const isExcluded = (p: Player, now: Date) => p.excludedUntil !== null && p.excludedUntil > now;
/** The player, open or closed, an id names. */
export const holderOf = (m: Model, id: string): Player => [...m.players, ...m.closed].find((p) => p.id === id)!;

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

/** Starting cash and bonus coins per player: none, some, enough for the large payouts. */
const someCoins = fc.constantFrom(0n, 300n, 2_000n, 80_000n);
/**
 * `[cash, bonus, identity verified]` for each of three players. The first is rich and
 * verified, so that their payouts pass the second-approver amount (over $500 in 24 hours)
 * and approvals reach that rule, not only the identity check before it (the others'
 * requests still meet that check).
 */
export const startingCoins = fc.tuple(
  fc.tuple(fc.constantFrom(80_000n, 150_000n), someCoins, fc.constant(true)),
  fc.tuple(someCoins, someCoins, fc.constant(false)),
  fc.tuple(someCoins, someCoins, fc.constant(false)),
);

/** Each player starts with `[cash, bonus, verified]`: cash as if paid by card, bonus as the house gives. */
export async function setupModel(base: Date, startingCoins: [bigint, bigint, boolean][]): Promise<{ model: Model; real: Real }> {
  const players: Player[] = [];
  const admins = [(await createTestUser({ isAdmin: true })).id, (await createTestUser({ isAdmin: true })).id];
  for (const [cash, bonus, verified] of startingCoins) {
    const user = await createTestUser({ cash, coins: bonus, identityVerified: false, country: "IE" });
    if (verified) await verifyIdentity(admins[0]!, user.id, "passport seen by support", base);
    players.push({
      id: user.id,
      email: user.email,
      welcomed: false,
      cash,
      bonus,
      hold: 0n,
      vipTier: null,
      vipExpiry: null,
      lastSpinAt: null,
      claimedDays: new Set(),
      excludedUntil: null,
      selfExcluded: false,
      verified,
      flagged: false,
    });
  }
  const model: Model = { now: base, end: new Date(base.getTime() + RUN_SPAN_MS), players, closed: [], admins, raffles: [], payments: [], withdrawals: [] };
  await addRaffle(model, { startOffsetMs: -1000, durationMs: 20 * 60_000, entryPrice: 50n, vipOnly: false, cap: 10 });
  await addRaffle(model, { startOffsetMs: -1000, durationMs: 3 * 3_600_000, entryPrice: 5n, vipOnly: false, cap: 3 });
  return { model, real: {} };
}

export async function addRaffle(m: Model, r: { startOffsetMs: number; durationMs: number; entryPrice: bigint; vipOnly: boolean; cap: number }) {
  const startsAt = new Date(m.now.getTime() + r.startOffsetMs);
  const endsAt = new Date(startsAt.getTime() + r.durationMs);
  const id = await openRaffle({ kind: "regular", tier: "micro", entryPrice: r.entryPrice, startsAt, endsAt, vipOnly: r.vipOnly, maxTicketsPerPlayer: r.cap });
  m.raffles.push({ id: id!, entryPrice: r.entryPrice, startsAt, endsAt, vipOnly: r.vipOnly, cap: r.cap, status: "active", tickets: [] });
}

/** The database agrees with the model, and the invariants hold. */
export async function checkAgainstModel(m: Model) {
  expect(await ledgerInvariants()).toEqual(BALANCED);
  expect(await raffleProblems(m.raffles.map((r) => r.id))).toEqual([]);
  const everyone = [...m.players, ...m.closed];
  const ids = everyone.map((p) => p.id);
  expect(await cashOutProblems(ids), "cash withdrawn never exceeds cash paid in plus the cash part of prizes").toEqual([]);

  const accounts = await db().ledgerAccount.findMany({ where: { userId: { in: ids } }, select: { userId: true, kind: true, balance: true } });
  const balance = (userId: string, kind: "user" | "user_bonus" | "withdrawal_hold") =>
    accounts.find((a) => a.userId === userId && a.kind === kind)?.balance ?? 0n;
  expect(ids.map((id) => [balance(id, "user"), balance(id, "user_bonus"), balance(id, "withdrawal_hold")])).toEqual(
    everyone.map((p) => [p.cash, p.bonus, p.hold]),
  );

  const raffles = await db().raffle.findMany({
    where: { id: { in: m.raffles.map((r) => r.id) } },
    select: { id: true, status: true, entries: { orderBy: { position: "asc" }, select: { userId: true, cash: true, bonus: true } } },
  });
  const byId = new Map(raffles.map((r) => [r.id, r]));
  expect(m.raffles.map((r) => ({ status: byId.get(r.id)?.status, tickets: byId.get(r.id)?.entries }))).toEqual(
    m.raffles.map((r) => ({ status: r.status, tickets: r.tickets })),
  );

  const withdrawals = await db().withdrawal.findMany({
    where: { userId: { in: ids } },
    select: { id: true, status: true, legs: { orderBy: { position: "asc" }, select: { kind: true, amount: true, status: true } } },
  });
  expect(new Map(withdrawals.map((w) => [w.id, [w.status, w.legs.map((l) => `${l.kind} ${l.amount} ${l.status}`)]]))).toEqual(
    new Map(m.withdrawals.map((w) => [w.id, [w.status, w.legs.map((l) => `${l.kind} ${l.amount} ${l.status}`)]])),
  );
  const payments = await db().payment.findMany({
    where: { userId: { in: ids } },
    select: { providerPaymentId: true, status: true, refundedCents: true, disputedCents: true },
  });
  expect(new Map(payments.map((p) => [p.providerPaymentId, [p.status, p.refundedCents, p.disputedCents]]))).toEqual(
    new Map(m.payments.map((p) => [p.id, [p.status, p.refundedCents, p.disputedCents]])),
  );
}

// ---- draws, shared by the scheduler's pass and the admin's early completion ----

/** Gives each of the tickets back to its holder, in its own mix; returns how many there were. */
export function refundTickets(m: Model, tickets: Ticket[]): number {
  for (const ticket of tickets) {
    const player = holderOf(m, ticket.userId);
    player.cash += ticket.cash;
    player.bonus += ticket.bonus;
  }
  return tickets.length;
}

export function applyDraw(m: Model, raffle: Raffle, result: DrawOutcome) {
  const holders = [...new Set(raffle.tickets.map((t) => t.userId))];
  expect(result.raffleId).toBe(raffle.id);
  if (holders.length < 2) {
    expect(result).toEqual({ raffleId: raffle.id, outcome: "cancelled", reason: "too_few_players", refunded: raffle.tickets.length });
    refundTickets(m, raffle.tickets);
    raffle.status = "cancelled";
    return;
  }
  if (result.outcome !== "completed") throw new Error(`raffle with ${holders.length} players was ${result.outcome}`);
  expect(raffle.tickets[result.winningTicket]?.userId, "the winner holds the winning ticket").toBe(result.winnerId);
  const winner = m.players.find((p) => p.id === result.winnerId)!;
  const pot = raffle.tickets.reduce((sum, t) => ({ cash: sum.cash + t.cash, bonus: sum.bonus + t.bonus }), { cash: 0n, bonus: 0n });
  // Half the pot in its own mix; the VIP extra in bonus from promotions; the house keeps half the cash.
  const { prize, rake, extra } = splitPotMix(pot, winMultiplierTenths(activeVipTier(winner, m.now)));
  expect({ prize: result.prize, rake: result.rake }).toEqual({ prize: prize.cash + prize.bonus + extra, rake: rake.cash + rake.bonus });
  expect(prize.cash * 2n <= pot.cash, "a prize's cash is at most half the pot's cash").toBe(true);
  winner.cash += prize.cash;
  winner.bonus += prize.bonus + extra;
  raffle.status = "completed";
}

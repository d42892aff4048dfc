import type { RaffleKind } from "~/generated/prisma/client";
import * as feeds from "~/models/feeds.server";
import { displayName } from "./display-name";
import { coinsToDecimal, formatDollars } from "./money";
import { prizeOutlook } from "./prize";
import * as readModel from "./read-model.server";
import { utcDay } from "./rewards.server";
import { activeVipTier, winMultiplierTenths, type VipTierName } from "./vip";

/**
 * The read side of the game, in the spec's JSON shapes (section 3): dollar strings for
 * decimal fields, integer coins elsewhere, times as ISO strings.
 */
export function timeAgo(then: Date, now: Date): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - then.getTime()) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86_400)}d ago`;
}

export type RaffleView = {
  id: string;
  tier: string;
  entryPrice: string;
  currentPot: string;
  participantCount: number;
  ticketCount: number;
  endTime: string;
  timeRemaining: number;
  status: "active" | "completed" | "cancelled";
  vipOnly: boolean;
  maxTicketsPerPlayer: number;
  seedHash: string;
  /** What the asking player stands to win, their VIP multiplier included (prizeOutlook). */
  couldWin: string;
  /** Whether `couldWin` is the prize if the round were drawn now (the player is in it, with another player). */
  couldWinNow: boolean;
  /** Only when a player asks: their tickets in it. */
  myTickets?: number;
};

export async function listRaffles(
  kind: RaffleKind,
  { userId, vip, now = new Date() }: { userId?: string; vip?: { vipTier: VipTierName | null; vipExpiry: Date | null }; now?: Date } = {},
) {
  const multiplierTenths = winMultiplierTenths(vip ? activeVipTier(vip, now) : null);
  const [active, mine] = await Promise.all([
    readModel.activeRaffles(kind, () => feeds.listActiveRaffles(kind)),
    userId ? readModel.ticketsOf(userId, kind, () => feeds.ticketCounts(userId, kind)) : undefined,
  ]);
  const raffles = active.filter((r) => r.startsAt <= now);
  return raffles.map((r): RaffleView => {
    const myTickets = mine?.get(r.id) ?? 0;
    const outlook = prizeOutlook({ pot: r.pot, entryPrice: r.entryPrice, myTickets, participantCount: r.playerCount, multiplierTenths });
    return {
      id: r.id,
      tier: r.tier,
      entryPrice: coinsToDecimal(r.entryPrice),
      currentPot: coinsToDecimal(r.pot),
      participantCount: r.playerCount,
      ticketCount: r.ticketCount,
      endTime: r.endsAt.toISOString(),
      timeRemaining: Math.max(0, Math.ceil((r.endsAt.getTime() - now.getTime()) / 1000)),
      status: r.status,
      vipOnly: r.vipOnly,
      maxTicketsPerPlayer: r.maxTicketsPerPlayer,
      seedHash: r.seedHash,
      couldWin: coinsToDecimal(outlook.coins),
      couldWinNow: outlook.ifDrawnNow,
      ...(mine ? { myTickets } : {}),
    };
  });
}

export async function getStats(now = new Date()) {
  const s = await readModel.panel(`stats:${utcDay(now).toISOString()}`, () => feeds.stats(now, utcDay(now)));
  return { totalPlayers: s.players, totalPots: coinsToDecimal(s.pots), winnersToday: s.winners };
}

/** Winners of every kind of raffle, newest first (the home panel and the big-win banner). */
export async function getRecentWinners(now = new Date(), limit = 10) {
  return (await readModel.panel(`winners:${limit}`, () => feeds.recentWinners(undefined, limit))).map((r) => ({
    raffleId: r.id,
    username: displayName(r.winner),
    amount: formatDollars(r.prize ?? 0n),
    amountCoins: Number(r.prize ?? 0n),
    timeAgo: timeAgo(r.drawnAt!, now),
    entryAmount: formatDollars(r.entryPrice),
    tier: r.tier,
  }));
}

export async function getRecentQuickWinners(now = new Date(), limit = 10) {
  return (await readModel.panel(`quick-winners:${limit}`, () => feeds.recentWinners("quick", limit))).map((r) => ({
    raffleId: r.id,
    username: displayName(r.winner),
    amount: formatDollars(r.prize ?? 0n),
    timeAgo: timeAgo(r.drawnAt!, now),
  }));
}

/** Monday 00:00 UTC of `now`'s week. */
export function utcWeekStart(now: Date): Date {
  const day = utcDay(now);
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * 86_400_000);
}

export async function getLeaderboard(now = new Date(), limit = 10) {
  return (await readModel.panel(`leaderboard:${utcWeekStart(now).toISOString()}:${limit}`, () => feeds.leaderboard(utcWeekStart(now), limit))).map((row) => ({
    username: displayName(row),
    totalWins: Number(row.wins),
    totalWinnings: formatDollars(row.winnings),
  }));
}

// The read side of the game, in the spec's JSON shapes (section 3): dollar strings for
// decimal fields, integer coins elsewhere, times as ISO strings.
import type { RaffleKind } from "~/generated/prisma/client";
import * as feeds from "~/models/raffles/raffle-board.server";
import { displayName } from "~/shared/display-name";
import { coinsToDecimal, formatDollars } from "~/shared/money";
import { couldWinView } from "~/shared/prize";
import { DRAWN_SHOWN_MS, timeAgo } from "~/shared/raffle-display";
import { toldRound, type ToldRound } from "~/shared/live-reload";
import * as readModel from "~/infra/read-model.server";
import { utcDay } from "../rewards/rewards.server";
import { playerTickets } from "../accounts/player-state.server";
import { activeVipTier, winMultiplierTenths, type VipTierName } from "~/shared/vip";

export type RaffleView = {
  id: string;
  tier: string;
  entryPrice: string;
  currentPot: string;
  participantCount: number;
  ticketCount: number;
  /** When it opened (the card's progress bar runs from here to endTime). */
  startTime: string;
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
  /** Only when an admin closed it early: the beacon round that will draw it. */
  closedEarly?: { beaconRound: number };
};

export async function listRaffles(
  kind: RaffleKind,
  { userId, vip, now = new Date() }: { userId?: string; vip?: { vipTier: VipTierName | null; vipExpiry: Date | null }; now?: Date } = {},
) {
  const multiplierTenths = winMultiplierTenths(vip ? activeVipTier(vip, now) : null);
  const [active, mine] = await Promise.all([readModel.activeRaffles(kind, () => feeds.listActiveRaffles(kind)), userId ? playerTickets(userId) : undefined]);
  const raffles = active.filter((r) => r.startsAt <= now);
  return raffles.map((r): RaffleView => {
    const myTickets = mine?.get(r.id) ?? 0;
    return {
      id: r.id,
      tier: r.tier,
      entryPrice: coinsToDecimal(r.entryPrice),
      currentPot: coinsToDecimal(r.pot),
      participantCount: r.playerCount,
      ticketCount: r.ticketCount,
      startTime: r.startsAt.toISOString(),
      endTime: r.endsAt.toISOString(),
      timeRemaining: Math.max(0, Math.ceil((r.endsAt.getTime() - now.getTime()) / 1000)),
      status: r.status,
      vipOnly: r.vipOnly,
      maxTicketsPerPlayer: r.maxTicketsPerPlayer,
      seedHash: r.seedHash,
      ...couldWinView({ pot: r.pot, entryPrice: r.entryPrice, myTickets, participantCount: r.playerCount, multiplierTenths }),
      ...(mine ? { myTickets } : {}),
      ...(r.closedEarlyRound === null ? {} : { closedEarly: { beaconRound: r.closedEarlyRound } }),
    };
  });
}

/**
 * The rounds of the kind opened ahead of their start (the scheduler opens each 2 s early), as
 * their event told them: a page read in those seconds adds each at its start (ADR 094).
 */
export async function listUpcoming(kind: RaffleKind, now = new Date()): Promise<ToldRound[]> {
  const active = await readModel.activeRaffles(kind, () => feeds.listActiveRaffles(kind));
  return active.filter((r) => r.startsAt > now).map((r) => toldRound(r.id, { ...r, kind }));
}

/** A raffle drawn moments ago, as its card shows it beside the next round. */
export type DrawnRaffleView = Omit<RaffleView, "timeRemaining" | "maxTicketsPerPlayer" | "seedHash" | "couldWin" | "status"> & {
  status: "completed" | "cancelled";
  couldWin: string;
  drawnAt: string;
  /** Completed: the winner's name and prize (dollars), and whether it is the player asking. */
  winner?: string;
  /** Completed: whether the winner is one of the demo crowd's simulated players. */
  winnerIsDemo?: boolean;
  prize?: string;
  youWon?: boolean;
  /** Completed: the ticket drawn (1-based, as the fair-draw page numbers it). */
  winningTicket?: number;
};

/**
 * The raffles of the kind drawn within DRAWN_SHOWN_MS, newest first: their cards stay, with
 * the winner, while the next round opens beside them. Shared by every player (a panel), and
 * read again after any raffle change.
 */
export async function listRecentlyDrawn(kind: RaffleKind, { userId, now = new Date() }: { userId?: string; now?: Date } = {}): Promise<DrawnRaffleView[]> {
  // Read with a margin (a panel is kept up to 5 s), then cut at `now`.
  const rows = await readModel.panel(`drawn:${kind}`, () => feeds.recentlyDrawn(kind, new Date(Date.now() - DRAWN_SHOWN_MS - 10_000)));
  return rows
    .filter((r) => r.drawnAt.getTime() > now.getTime() - DRAWN_SHOWN_MS)
    .map((r) => ({
      id: r.id,
      tier: r.tier,
      entryPrice: coinsToDecimal(r.entryPrice),
      currentPot: coinsToDecimal(r.finalPot),
      participantCount: r.playerCount,
      ticketCount: r.ticketCount,
      startTime: r.startsAt.toISOString(),
      endTime: r.endsAt.toISOString(),
      status: r.status,
      vipOnly: r.vipOnly,
      couldWin: "0.00",
      couldWinNow: false,
      drawnAt: r.drawnAt.toISOString(),
      ...(r.status === "completed"
        ? {
            winner: displayName({ username: r.username, firstName: r.firstName }),
            winnerIsDemo: r.winnerIsDemo === true,
            prize: coinsToDecimal(r.prize ?? 0n),
            youWon: r.winnerId === userId,
            ...(r.winningTicket === null ? {} : { winningTicket: r.winningTicket }),
          }
        : {}),
    }));
}

export async function getStats(now = new Date()) {
  const s = await readModel.panel(`stats:${utcDay(now).toISOString()}`, () => feeds.stats(now, utcDay(now)), { heavy: true });
  return { totalPlayers: s.players, totalPots: coinsToDecimal(s.pots), winnersToday: s.winners };
}

/** Winners of every kind of raffle, newest first (the home panel and the big-win banner). */
export async function getRecentWinners(now = new Date(), limit = 10) {
  return (await readModel.panel(`winners:${limit}`, () => feeds.recentWinners(undefined, limit))).map((r) => ({
    raffleId: r.id,
    username: displayName(r.winner),
    isDemo: r.winner?.isDemo === true,
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
    isDemo: r.winner?.isDemo === true,
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
  return (
    await readModel.panel(`leaderboard:${utcWeekStart(now).toISOString()}:${limit}`, () => feeds.leaderboard(utcWeekStart(now), limit), { heavy: true })
  ).map((row) => ({
    username: displayName(row),
    isDemo: row.isDemo,
    totalWins: Number(row.wins),
    totalWinnings: formatDollars(row.winnings),
  }));
}

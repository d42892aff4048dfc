import { getLeaderboard, getRecentWinners, getStats, listRaffles, listRecentlyDrawn, listUpcoming } from "./raffle-views.server";
import { onTheBoard } from "~/shared/raffle-display";
import { parseDollars } from "~/shared/money";
import { spinStatus } from "../rewards/rewards.server";
import type { VipTierName } from "~/shared/vip";

/** The signed-in player as the game's pages need them: who, and their VIP (for what they stand to win). */
export type Player = { id: string; vipTier: VipTierName | null; vipExpiry: Date | null };

/** Everything the signed-in home page shows, read in parallel. */
export async function homePage(player: Player, now = new Date()) {
  const userId = player.id;
  const [raffles, drawn, stats, winners, leaderboard, spin, upcoming] = await Promise.all([
    listRaffles("regular", { userId, vip: player, now }),
    listRecentlyDrawn("regular", { userId, now }),
    getStats(now),
    getRecentWinners(now),
    getLeaderboard(now),
    spinStatus(userId, now),
    listUpcoming("regular", now),
  ]);
  const pot = (r: { currentPot: string }) => parseDollars(r.currentPot) ?? 0n;
  const byPot = [...raffles].sort((a, b) => (pot(b) > pot(a) ? 1 : pot(b) < pot(a) ? -1 : 0));
  return {
    featured: byPot.slice(0, 10),
    // Raffles drawn moments ago keep their card, with the winner, beside the next round.
    raffles: onTheBoard(raffles, drawn),
    stats,
    winners,
    leaderboard,
    spin: { ...spin, nextSpinTime: spin.nextSpinTime.toISOString() },
    // When it was read: rounds that start after it are the page's to add (ADR 094).
    upcoming,
    readAt: now.getTime(),
  };
}

/** The landing page's honest "Live Right Now" figures. */
export const landingPage = (now = new Date()) => getStats(now);

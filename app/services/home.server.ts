import { getLeaderboard, getRecentWinners, getStats, listRaffles, listRecentlyDrawn, onTheBoard } from "./feeds.server";
import { parseDollars } from "./money";
import { spinStatus } from "./rewards.server";

/** Everything the signed-in home page shows, read in parallel. */
export async function homePage(userId: string, now = new Date()) {
  const [raffles, drawn, stats, winners, leaderboard, spin] = await Promise.all([
    listRaffles("regular", { userId, now }),
    listRecentlyDrawn("regular", { userId, now }),
    getStats(now),
    getRecentWinners(now),
    getLeaderboard(now),
    spinStatus(userId, now),
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
    spin: { canSpin: spin.canSpin, nextSpinTime: spin.nextSpinTime.toISOString() },
  };
}

/** The landing page's honest "Live Right Now" figures. */
export const landingPage = (now = new Date()) => getStats(now);

import { getRecentQuickWinners, listRaffles, listRecentlyDrawn, listUpcoming } from "./raffle-views.server";
import { onTheBoard } from "~/shared/raffle-display";
import type { Player } from "./home.server";

/** The quick raffles page: open rounds, the rounds drawn moments ago (with their winner), and the winners ticker. */
export async function quickPage(player: Player, now = new Date()) {
  const [raffles, drawn, winners, upcoming] = await Promise.all([
    listRaffles("quick", { userId: player.id, vip: player, now }),
    listRecentlyDrawn("quick", { userId: player.id, now }),
    getRecentQuickWinners(now),
    listUpcoming("quick", now),
  ]);
  // When it was read: rounds that start after it are the page's to add (ADR 094).
  return { raffles: onTheBoard(raffles, drawn), winners, upcoming, readAt: now.getTime() };
}

import { getRecentQuickWinners, listRaffles, listRecentlyDrawn, onTheBoard } from "./raffle-views.server";
import type { Player } from "./home.server";

/** The quick raffles page: open rounds, the rounds drawn moments ago (with their winner), and the winners ticker. */
export async function quickPage(player: Player, now = new Date()) {
  const [raffles, drawn, winners] = await Promise.all([
    listRaffles("quick", { userId: player.id, vip: player, now }),
    listRecentlyDrawn("quick", { userId: player.id, now }),
    getRecentQuickWinners(now),
  ]);
  return { raffles: onTheBoard(raffles, drawn), winners };
}

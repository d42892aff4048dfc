import { getRecentQuickWinners, listRaffles, listRecentlyDrawn, onTheBoard } from "./feeds.server";

/** The quick raffles page: open rounds, the rounds drawn moments ago (with their winner), and the winners ticker. */
export async function quickPage(userId: string, now = new Date()) {
  const [raffles, drawn, winners] = await Promise.all([
    listRaffles("quick", { userId, now }),
    listRecentlyDrawn("quick", { userId, now }),
    getRecentQuickWinners(now),
  ]);
  return { raffles: onTheBoard(raffles, drawn), winners };
}

import { getRecentQuickWinners, listRaffles } from "./feeds.server";

/** The quick raffles page: open rounds and the winners ticker. */
export async function quickPage(userId: string, now = new Date()) {
  const [raffles, winners] = await Promise.all([listRaffles("quick", { userId, now }), getRecentQuickWinners(now)]);
  return { raffles, winners };
}

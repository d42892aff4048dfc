import { getRecentQuickWinners, listRaffles } from "./feeds.server";
import type { Player } from "./home.server";

/** The quick raffles page: open rounds and the winners ticker. */
export async function quickPage(player: Player, now = new Date()) {
  const [raffles, winners] = await Promise.all([listRaffles("quick", { userId: player.id, vip: player, now }), getRecentQuickWinners(now)]);
  return { raffles, winners };
}

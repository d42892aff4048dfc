import * as readModel from "~/infra/read-model.server";
import { readPlayerState, type PlayerState } from "~/models/accounts/player-state.server";

/**
 * What the page shows of its player (coins, last spin, tickets), read once a page: the root's
 * loader and the page's ask at once and share the read (ADR 101).
 */
export function playerState(userId: string): Promise<PlayerState> {
  return readModel.playerRead(userId, () => readPlayerState(userId));
}

/** The player's tickets in the open raffles: kept between their entries, so a list sends no statement (ADR 103). */
export async function playerTickets(userId: string): Promise<Map<string, number>> {
  return readModel.keptTickets(userId) ?? (await playerState(userId)).tickets;
}

import type { Tx } from "~/models/db.server";
import { removeTickets, type RemovedTickets } from "~/models/raffles/entry.server";
import { publish } from "~/infra/events.server";

/**
 * Takes a player's tickets out of a locked open raffle (a break, an exclusion, a closed
 * account) and tells open pages at commit: its pot went down, which a pot event cannot say,
 * since pages take a pot with fewer tickets for an older one. They drop the pot they heard
 * and read the raffle again.
 */
export async function takeTicketsBack(tx: Tx, raffleId: string, userId: string): Promise<RemovedTickets> {
  const removed = await removeTickets(tx, raffleId, userId);
  const { kind, tier } = removed;
  if (kind !== undefined && tier !== undefined) await publish(tx, { type: "round", raffleId, kind, tier, ticketsTakenBack: true });
  return removed;
}

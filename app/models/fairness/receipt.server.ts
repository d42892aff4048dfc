import { db } from "../db.server";

/**
 * A player's own ticket, as its receipt names it (ADR 079): scoped by owner, so another
 * player's ticket id finds nothing.
 */
export function ownTicket(userId: string, entryId: string) {
  return db().entry.findFirst({
    where: { id: entryId, userId },
    select: { id: true, raffleId: true, position: true, cash: true, bonus: true, createdAt: true, user: { select: { username: true } } },
  });
}

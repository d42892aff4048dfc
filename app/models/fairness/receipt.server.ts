import { db } from "../db.server";

/**
 * A player's own ticket, as its receipt names it (ADR 079): scoped by owner, so another
 * player's ticket id finds nothing. Found by its primary key, the owner checked on the row:
 * with the owner in the condition, a player newer than the table's statistics got a scan of
 * all their tickets (issue 36, as in the history's receipts).
 */
export async function ownTicket(userId: string, entryId: string) {
  const ticket = await db().entry.findUnique({
    where: { id: entryId },
    select: { id: true, userId: true, raffleId: true, position: true, cash: true, bonus: true, createdAt: true, user: { select: { username: true } } },
  });
  return ticket?.userId === userId ? ticket : null;
}

import type { User } from "~/generated/prisma/client";
import { db, type Tx } from "../db.server";

/** The demo crowd's players among `emails`: only accounts marked demo, never a real player's. */
export async function demoPlayersByEmail(emails: string[]) {
  return db().user.findMany({
    where: { email: { in: emails }, isDemo: true, closedAt: null },
    select: { id: true, email: true, username: true },
  });
}

/** Whether the user is a demo player, read under the row lock the caller's transaction holds. */
export async function isDemoPlayer(tx: Tx, userId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<Pick<User, "isDemo">[]>`SELECT is_demo AS "isDemo" FROM users WHERE id = ${userId}::uuid`;
  return rows[0]?.isDemo === true;
}

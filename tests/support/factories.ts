import { randomBytes } from "node:crypto";
import { db } from "~/models/db.server";
import { houseAccountId, postTransaction, userAccountId } from "~/models/ledger.server";
import { openRaffle, type NewRaffle } from "~/services/raffles.server";
import { usernameKey } from "~/services/username";
import type { VipTierName } from "~/services/vip";

/** Test data made directly in the database (tests never go through sign-up to get a player). */
export async function createTestUser({
  coins = 0n,
  vipTier,
  vipExpiry,
  isAdmin = false,
  username = true,
}: { coins?: bigint; vipTier?: VipTierName; vipExpiry?: Date; isAdmin?: boolean; username?: boolean } = {}) {
  const tag = randomBytes(6).toString("hex");
  const user = await db().user.create({
    data: {
      email: `player-${tag}@test.local`,
      username: username ? `p_${tag}` : null,
      usernameKey: username ? usernameKey(`p_${tag}`) : null,
      dateOfBirth: new Date("1990-01-01"),
      termsAcceptedAt: new Date(),
      country: "GB",
      isAdmin,
      vipTier,
      vipExpiry,
    },
    select: { id: true, email: true, username: true },
  });
  if (coins > 0n) await grantCoins(user.id, coins);
  return user;
}

/** Gives coins from the promotions account, as a bonus would. */
export async function grantCoins(userId: string, amount: bigint) {
  await db().$transaction(async (tx) => {
    await postTransaction(tx, {
      kind: "bonus",
      reference: `test-grant:${randomBytes(8).toString("hex")}`,
      userId,
      postings: [
        { accountId: await houseAccountId("promotions", tx), amount: -amount },
        { accountId: await userAccountId(tx, userId), amount },
      ],
    });
  });
}

/** An active raffle that started a second ago. */
export async function createTestRaffle(overrides: Partial<NewRaffle> = {}) {
  const now = Date.now();
  const id = await openRaffle({
    kind: "regular",
    tier: "micro",
    entryPrice: 5n,
    startsAt: new Date(now - 1000),
    endsAt: new Date(now + 60 * 60 * 1000),
    ...overrides,
  });
  return db().raffle.findUniqueOrThrow({ where: { id: id! }, select: { id: true, endsAt: true, startsAt: true, entryPrice: true } });
}

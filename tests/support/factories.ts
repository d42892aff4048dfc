import { randomBytes } from "node:crypto";
import { db } from "~/models/db.server";
import { houseAccountId, postTransaction, userAccountId } from "~/models/money/ledger.server";
import type { NewRaffle } from "~/models/raffles/raffle.server";
import { openRaffle } from "~/services/raffles/raffles.server";
import { usernameKey } from "~/shared/username";
import type { VipTierName } from "~/shared/vip";

/**
 * Test data made directly in the database (tests never go through sign-up to get a
 * player). `coins` are bonus coins, as the house gives; `cash` as if paid by card.
 */
export async function createTestUser({
  coins = 0n,
  cash = 0n,
  vipTier,
  vipExpiry,
  isAdmin = false,
  username = true,
  emailVerified = true,
  identityVerified = true,
  country = "GB",
}: {
  coins?: bigint;
  cash?: bigint;
  vipTier?: VipTierName;
  vipExpiry?: Date;
  isAdmin?: boolean;
  username?: boolean;
  emailVerified?: boolean;
  identityVerified?: boolean;
  country?: string;
} = {}) {
  const tag = randomBytes(6).toString("hex");
  const user = await db().user.create({
    data: {
      email: `player-${tag}@test.local`,
      username: username ? `p_${tag}` : null,
      usernameKey: username ? usernameKey(`p_${tag}`) : null,
      dateOfBirth: new Date("1990-01-01"),
      termsAcceptedAt: new Date(),
      country,
      isAdmin,
      vipTier,
      vipExpiry,
      // Players made here have verified their address (ADR 032), unless a test says otherwise.
      emailVerifiedAt: emailVerified ? new Date() : null,
      // And, living in GB, their identity before they deposit or play (ADR 080), unless a test says otherwise.
      identityVerifiedAt: identityVerified ? new Date() : null,
    },
    select: { id: true, email: true, username: true },
  });
  if (coins > 0n) await grantCoins(user.id, coins);
  if (cash > 0n) await grantCoins(user.id, cash, "cash");
  return user;
}

/**
 * Gives bonus coins from the promotions account, as a bonus would, or cash coins from
 * card deposits, as if the player had paid for them.
 */
export async function grantCoins(userId: string, amount: bigint, currency: "bonus" | "cash" = "bonus") {
  await db().$transaction(async (tx) => {
    await postTransaction(tx, {
      kind: currency === "cash" ? "deposit" : "bonus",
      reference: `test-grant:${randomBytes(8).toString("hex")}`,
      userId,
      postings: [
        { accountId: await houseAccountId(currency === "cash" ? "card_deposits" : "promotions", tx), amount: -amount },
        { accountId: await userAccountId(tx, userId, currency === "cash" ? "user" : "user_bonus"), amount },
      ],
    });
  });
}

/**
 * Cash withdrawn by the player, as the ledger records a withdrawal: held (cash →
 * withdrawal hold) and, unless `paidOut` is false, paid (hold → payouts). Without a
 * withdrawal request, so that tests of the money figures do not depend on how payouts are
 * decided.
 */
export async function withdrawCash(userId: string, amount: bigint, { paidOut = true } = {}) {
  const tag = randomBytes(8).toString("hex");
  await db().$transaction(async (tx) => {
    const hold = await userAccountId(tx, userId, "withdrawal_hold");
    await postTransaction(tx, {
      kind: "withdrawal_hold",
      reference: `test-hold:${tag}`,
      userId,
      postings: [
        { accountId: await userAccountId(tx, userId), amount: -amount },
        { accountId: hold, amount },
      ],
    });
    if (!paidOut) return;
    await postTransaction(tx, {
      kind: "payout",
      reference: `test-payout:${tag}`,
      userId,
      postings: [
        { accountId: hold, amount: -amount },
        { accountId: await houseAccountId("payouts", tx), amount },
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

/** A raffle's pot: its cash and bonus pots together. */
export async function potTotal(raffleId: string): Promise<bigint> {
  const pots = await db().ledgerAccount.findMany({ where: { raffleId }, select: { balance: true } });
  return pots.reduce((sum, pot) => sum + pot.balance, 0n);
}

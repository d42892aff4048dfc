import { randomInt } from "node:crypto";
import { db } from "~/models/db.server";
import { postPromotion } from "~/models/money/ledger.server";
import { claimVipIn, spinIn, vipClaimOn, type GiftOutcome } from "~/models/rewards/daily-reward.server";
import { lockUser, vipOf } from "~/models/accounts/user.server";
import { isDemoPlayer } from "~/models/accounts/demo-players.server";
import { claimPersonGrant } from "~/models/play-safety/person-control.server";
import { personEmailKey } from "~/infra/person-key.server";
import { DomainError } from "~/shared/domain-error";
import { assertMayPlay, exclusionError, jurisdictionError } from "../play-safety/responsible-play.server";
import { placesServed } from "~/shared/jurisdictions";
import { playerState } from "../accounts/player-state.server";
import { getEnv } from "~/infra/env.server";
import { pickReward, wheelOdds } from "~/shared/spin-wheel";
import { activeVipTier, VIP_TIERS } from "~/shared/vip";

/** The daily wheel turns once every 24 hours per player. */
export const SPIN_INTERVAL_MS = 24 * 60 * 60 * 1000;

/**
 * In demo mode (no real money), every new account starts with these coins to play with. Coins
 * the house gives are bonus coins: play only, never withdrawn (PRODUCT.md).
 */
export const DEMO_WELCOME_COINS = 1000n;

/** Once per person: an account opened again with the same email gets none. */
export async function grantDemoWelcome(userId: string, email: string): Promise<boolean> {
  const personKey = personEmailKey(email);
  return db().$transaction(async (tx) => {
    if (!(await claimPersonGrant(tx, personKey, "demo-welcome", userId))) return false;
    await postPromotion(tx, { userId, amount: DEMO_WELCOME_COINS, kind: "bonus", reference: `demo-welcome:${userId}` });
    return true;
  });
}

/** A demo player low on coins gets this many more, at most once per UTC hour. */
export const DEMO_CROWD_TOP_UP_COINS = 1000n;

/**
 * A promotion for a demo crowd player in demo mode: bonus coins from the house's promotions
 * account, like the welcome coins. The hour in the reference makes two at once one grant.
 */
export async function grantDemoCrowdTopUp(userId: string, now = new Date()): Promise<boolean> {
  if (!getEnv().demoMode) return false;
  return db().$transaction(async (tx) => {
    if (!(await lockUser(tx, userId)) || !(await isDemoPlayer(tx, userId))) return false;
    await assertMayPlay(userId, now, tx);
    const hour = now.toISOString().slice(0, 13);
    return postPromotion(tx, { userId, amount: DEMO_CROWD_TOP_UP_COINS, kind: "bonus", reference: `demo-crowd-top-up:${userId}:${hour}` });
  });
}

/** When the player may spin next, the last reward won (the wheel rests on it) and the wheel's rewards. */
export async function spinStatus(
  userId: string,
  now = new Date(),
): Promise<{ canSpin: boolean; nextSpinTime: Date; lastReward: number | null; prizes: number[] }> {
  const { lastSpin: last } = await playerState(userId);
  const next = last ? new Date(last.spunAt.getTime() + SPIN_INTERVAL_MS) : now;
  const prizes = getEnv().SPIN_WHEEL_WEIGHTS.map((slice) => Number(slice.reward));
  return { canSpin: next.getTime() <= now.getTime(), nextSpinTime: next, lastReward: last ? Number(last.reward) : null, prizes };
}

/**
 * Spins the wheel: the server picks the reward (node:crypto) from the configured weights, with
 * the player's VIP odds; the spin itself is one statement (spin_wheel, ADR 109). A membership
 * that changed between the read and the spin is read and drawn again.
 */
export async function spinWheel(userId: string, now = new Date()): Promise<{ reward: bigint; nextSpinTime: Date }> {
  const places = placesServed(getEnv().ALLOWED_COUNTRIES);
  for (let attempt = 1; ; attempt++) {
    const read = await vipOf(userId);
    if (!read) throw new DomainError("user_not_found", "Player not found");
    const tier = activeVipTier(read, now);
    const reward = pickReward(wheelOdds(getEnv().SPIN_WHEEL_WEIGHTS, tier ? VIP_TIERS[tier].jackpotChances : 1), randomInt);
    const spun = await spinIn({ userId, reward, now, intervalMs: SPIN_INTERVAL_MS }, places, read);
    if (spun.outcome === "spun") return { reward, nextSpinTime: new Date(now.getTime() + SPIN_INTERVAL_MS) };
    if (spun.outcome === "spin_not_ready") throw new DomainError("spin_not_ready", "You have already spun today. Come back when the countdown ends.");
    refuseAtGate(spun);
    // A membership bought or ended in those milliseconds; three times running is not a player's doing.
    if (attempt >= 3) throw new Error(`the VIP membership of ${userId} kept changing during a spin`);
  }
}

/** Throws what the player is told when lock_player_gate refused them; returns for "changed". */
function refuseAtGate(answer: GiftOutcome<string>) {
  if (answer.outcome === "user_not_found") throw new DomainError("user_not_found", "Player not found");
  if (answer.outcome === "excluded") throw exclusionError(answer.at!, answer.exclusionKind);
  if (answer.outcome === "jurisdiction") throw jurisdictionError();
  if (answer.outcome !== "changed") throw new Error(`unexpected answer from the database: ${answer.outcome}`);
}

/** Midnight UTC of `now`'s day. */
export function utcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * A VIP's daily free coins: once per UTC day, the active tier's amount, claimed in one
 * statement as the spin is (claim_vip_bonus, ADR 110). A membership that changed between the
 * read and the claim is read again.
 */
export async function claimVipDailyBonus(userId: string, now = new Date()): Promise<{ amount: bigint }> {
  const places = placesServed(getEnv().ALLOWED_COUNTRIES);
  for (let attempt = 1; ; attempt++) {
    const read = await vipOf(userId);
    if (!read) throw new DomainError("user_not_found", "Player not found");
    const tier = activeVipTier(read, now);
    const amount = tier ? BigInt(VIP_TIERS[tier].dailyCoins) : 0n;
    const claimed = await claimVipIn({ userId, day: utcDay(now), now, amount }, places, read);
    if (claimed.outcome === "claimed") return { amount };
    if (claimed.outcome === "not_vip") throw new DomainError("not_vip", "The daily bonus is for active VIP members");
    if (claimed.outcome === "already_claimed") {
      throw new DomainError("already_claimed", "You have already claimed today's bonus. Come back tomorrow (UTC).");
    }
    refuseAtGate(claimed);
    if (attempt >= 3) throw new Error(`the VIP membership of ${userId} kept changing during a daily bonus claim`);
  }
}

export async function vipClaimStatus(userId: string, now = new Date()) {
  return { claimedToday: (await vipClaimOn(userId, utcDay(now))) !== null };
}

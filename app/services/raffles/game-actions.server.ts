import type { SessionUser } from "../accounts/auth.server";
import { coinsToDecimal } from "~/shared/money";
import { enterRaffle } from "./raffles.server";
import { consume, LIMITS } from "../system/rate-limit.server";
import { claimVipDailyBonus, spinWheel } from "../rewards/rewards.server";
import type { NewToast } from "~/shared/toast";

/**
 * The game's actions as both their JSON answer and their toast, so the API route (JSON)
 * and the page's form (a redirect with the toast, ADR 040) share one implementation.
 */
type Outcome = { json: unknown; toast: NewToast };

/**
 * An entry from the session whose token hash is given: the session, the player's rate limit
 * and every rule of the entry are checked in the entry's own transaction (enterRaffle).
 */
export async function enterAsPlayer(sessionHash: string, raffleId: string, kind: "regular" | "quick"): Promise<Outcome> {
  const result = await enterRaffle({ sessionHash, raffleId, kind });
  const json = {
    success: true,
    raffleId,
    tier: result.tier,
    tickets: result.positions,
    cost: coinsToDecimal(result.cost),
    coinBalance: Number(result.balance),
  };
  return kind === "quick"
    ? { json, toast: { type: "success", title: "Quick Entry!", description: `You're in the ${result.tier} round.` } }
    : { json, toast: { type: "success", title: "Success!", description: `Successfully entered ${result.tier} raffle!` } };
}

export async function spinAsPlayer(user: SessionUser): Promise<Outcome> {
  await consume(LIMITS.rewardsPerPlayer, user.id);
  const { reward, nextSpinTime } = await spinWheel(user.id);
  return {
    json: { reward: Number(reward), nextSpinTime: nextSpinTime.toISOString() },
    toast: { type: "success", title: "Congratulations!", description: `You won ${reward} coins!` },
  };
}

export async function claimAsPlayer(user: SessionUser): Promise<Outcome> {
  await consume(LIMITS.rewardsPerPlayer, user.id);
  const { amount } = await claimVipDailyBonus(user.id);
  return {
    json: { amount: Number(amount) },
    toast: { type: "success", title: "Daily Bonus Claimed!", description: `You received ${amount} bonus coins!` },
  };
}

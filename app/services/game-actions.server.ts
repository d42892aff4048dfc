import type { SessionUser } from "./auth.server";
import { coinsToDecimal } from "./money";
import { enterRaffle } from "./raffles.server";
import { consume, entryLimit, LIMITS } from "./rate-limit.server";
import { claimVipDailyBonus, spinWheel } from "./rewards.server";
import type { NewToast } from "./toast.server";

/**
 * The game's actions as both their JSON answer and their toast, so the API route and
 * the plain form post share one implementation (app/services/respond.server.ts).
 */
type Outcome = { json: unknown; toast: NewToast };

export async function enterAsPlayer(user: SessionUser, raffleId: string, kind: "regular" | "quick"): Promise<Outcome> {
  await consume(entryLimit(), user.id);
  const result = await enterRaffle({ userId: user.id, raffleId, kind });
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

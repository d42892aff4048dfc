import type { SessionUser } from "~/services/accounts/sessions.server";
import type { CardEntryAnswer } from "~/shared/card-answer";
import { coinsToDecimal } from "~/shared/money";
import { enterRaffle, type EntryResult } from "./raffles.server";
import { consume, LIMITS } from "../system/rate-limit.server";
import { claimVipDailyBonus, spinWheel } from "../rewards/rewards.server";

/**
 * The game's actions as the values the JSON API sends; the page routes word them as toasts
 * (app/web/game-toasts.ts), so both share one implementation.
 */
export type Entered = { success: true; raffleId: string; tier: string; tickets: number[]; cost: string; coinBalance: number };

/**
 * An entry from the session whose token hash is given: the session, the player's rate limit
 * and every rule of the entry are checked in the entry's own transaction (enterRaffle).
 */
export async function enterAsPlayer(sessionHash: string, raffleId: string, kind: "regular" | "quick"): Promise<Entered> {
  return entered(await enterRaffle({ sessionHash, raffleId, kind }));
}

/**
 * A raffle card's entry: the entry as `enterAsPlayer` makes it, and what the card shows after
 * it (the player's tickets in the raffle, their coins), from the entry's own statement, so
 * that the page need not load again (ADR 093).
 */
export async function enterFromCard(sessionHash: string, raffleId: string, kind: "regular" | "quick") {
  const result = await enterRaffle({ sessionHash, raffleId, kind });
  const card: Omit<CardEntryAnswer, "toast"> = {
    entered: { raffleId, myTickets: result.held },
    balances: { coinBalance: Number(result.balance), cashBalance: Number(result.cash), bonusBalance: Number(result.bonus) },
  };
  return { entered: entered(result), card };
}

function entered(result: EntryResult): Entered {
  return {
    success: true,
    raffleId: result.raffleId,
    tier: result.tier,
    tickets: result.positions,
    cost: coinsToDecimal(result.cost),
    coinBalance: Number(result.balance),
  };
}

export async function spinAsPlayer(user: SessionUser): Promise<{ reward: number; nextSpinTime: string }> {
  await consume(LIMITS.rewardsPerPlayer, user.id);
  const { reward, nextSpinTime } = await spinWheel(user.id);
  return { reward: Number(reward), nextSpinTime: nextSpinTime.toISOString() };
}

export async function claimAsPlayer(user: SessionUser): Promise<{ amount: number }> {
  await consume(LIMITS.rewardsPerPlayer, user.id);
  const { amount } = await claimVipDailyBonus(user.id);
  return { amount: Number(amount) };
}

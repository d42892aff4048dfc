import { checkDeposit } from "./responsible-play.server";

/**
 * The one place a deposit is checked before any payment is attempted: breaks and
 * self-exclusion, then the player's deposit limits (app/services/responsible-play.server.ts).
 */
export async function assertDepositAllowed(userId: string, amountCents: number, now = new Date()): Promise<void> {
  await checkDeposit(userId, amountCents, now);
}

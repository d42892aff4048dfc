import type { Entered } from "~/services/raffles/game-actions.server";
import type { NewToast } from "~/shared/toast";

/** The spec's toasts for the game's page actions; the JSON API sends the values themselves. */
export function enteredToast({ tier }: Pick<Entered, "tier">, kind: "regular" | "quick"): NewToast {
  return kind === "quick"
    ? { type: "success", title: "Quick Entry!", description: `You're in the ${tier} round.` }
    : { type: "success", title: "Success!", description: `Successfully entered ${tier} raffle!` };
}

export const spunToast = ({ reward }: { reward: number }): NewToast => ({
  type: "success",
  title: "Congratulations!",
  description: `You won ${reward} coins!`,
});

export const claimedToast = ({ amount }: { amount: number }): NewToast => ({
  type: "success",
  title: "Daily Bonus Claimed!",
  description: `You received ${amount} bonus coins!`,
});

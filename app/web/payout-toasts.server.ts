import { takePayoutNews } from "~/services/money/payouts.server";
import { coinsToDecimal } from "~/shared/money";
import type { NewToast } from "~/shared/toast";

/**
 * What became of the player's withdrawal whose state changed last, as a toast for their next
 * page (with or without JavaScript), once: on its way, completed, or failed with the reason.
 */
export async function takePayoutNotice(userId: string, withdrawalId: string): Promise<NewToast | null> {
  const w = await takePayoutNews(userId, withdrawalId);
  if (!w) return null;
  if (w.status === "approved" || w.status === "processing") {
    return { type: "info", title: "Withdrawal Processing", description: `Your $${coinsToDecimal(w.amount)} withdrawal was approved and is being sent.` };
  }
  if (w.status === "completed") return { type: "success", title: "Withdrawal Completed", description: `$${coinsToDecimal(w.amount)} has been sent.` };
  // What did not go out came back; a part that did go out stays sent.
  const back = w.status === "rejected" ? w.amount : w.legs.filter((l) => l.status === "failed").reduce((sum, l) => sum + l.amount, 0n);
  const sent = w.legs.filter((l) => l.status === "completed").reduce((sum, l) => sum + l.amount, 0n);
  const parts = [`$${coinsToDecimal(back)} is back in your balance.`, sent > 0n ? `$${coinsToDecimal(sent)} was sent.` : "", w.failureReason ?? ""];
  return { type: "error", title: "Withdrawal Failed", description: parts.filter(Boolean).join(" ") };
}

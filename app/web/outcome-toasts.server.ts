import { randomUUID } from "node:crypto";
import type { TakenOutcome } from "~/models/raffles/outcome-notice.server";
import { takeOutcomes } from "~/services/raffles/outcomes.server";
import { counted, TIER_LABELS } from "~/shared/raffle-display";
import type { NewToast, ToastMessage } from "~/shared/toast";

/**
 * Telling players what happened (PRODUCT.md; docs/decisions/028-telling-players-what-happened.md):
 * the outcomes the draw noted for a player (a win, a cancelled raffle's refund), as one toast
 * for their next page, once. With JavaScript the page they are on asks as soon as the draw's
 * notice event arrives, so they learn it without reloading; a win is celebrated.
 */
export type OutcomeToast = NewToast & { celebrate?: boolean };

function raffleName(o: Pick<TakenOutcome, "tier" | "kind">): string {
  return o.kind === "quick" ? `${o.tier.toUpperCase()} quick round` : `${TIER_LABELS[o.tier] ?? o.tier.toUpperCase()} raffle`;
}

const coins = (n: bigint) => counted(Number(n), "coin", "coins");

/** The toast for these outcomes (oldest first), or null when there are none. */
export function outcomeToast(outcomes: TakenOutcome[]): OutcomeToast | null {
  const wins = outcomes.filter((o) => o.outcome === "won");
  const refunds = outcomes.filter((o) => o.outcome === "refunded");
  const refunded = refunds.reduce((sum, o) => sum + o.amount, 0n);
  const refundText =
    refunds.length === 0
      ? ""
      : refunds.length === 1
        ? `Fewer than two players joined the ${raffleName(refunds[0]!)}: your ${counted(refunds[0]!.tickets, "ticket was", "tickets were")} refunded (${coins(refunded)}).`
        : `Fewer than two players joined ${refunds.length} of your raffles: ${coins(refunded)} were refunded.`;
  if (wins.length > 0) {
    const won = wins.reduce((sum, o) => sum + o.amount, 0n);
    const where = wins.length === 1 ? `You won the ${raffleName(wins[0]!)}.` : `You won ${wins.length} raffles.`;
    return {
      type: "success",
      title: `Congratulations! You won ${coins(won)}!`,
      description: [`${where} The prize is in your balance.`, refundText].filter(Boolean).join(" "),
      celebrate: true,
    };
  }
  if (refunds.length > 0) return { type: "info", title: refunds.length === 1 ? "Raffle Cancelled" : "Raffles Cancelled", description: refundText };
  return null;
}

/** Takes the player's waiting outcomes (once, whichever page asks first) as a toast. */
export async function takeOutcomeNotice(userId: string): Promise<ToastMessage | null> {
  const toast = outcomeToast(await takeOutcomes(userId));
  return toast && { id: randomUUID(), type: "info", ...toast };
}

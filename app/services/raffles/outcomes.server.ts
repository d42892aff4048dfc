import { takeOutcomeNotices, type TakenOutcome } from "~/models/raffles/outcome-notice.server";

/**
 * What the draws noted for a player (a win, a cancelled raffle's refund), taken once,
 * whichever page asks first; app/web/outcome-toasts.server.ts words them.
 */
export function takeOutcomes(userId: string): Promise<TakenOutcome[]> {
  return takeOutcomeNotices(userId);
}

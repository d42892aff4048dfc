/**
 * Which live events make an open page read its data again, and how soon (ADR 090). Every
 * open game page hears every event, so a reload per pot was a reload per player a second
 * while anyone played: the cards take a pot from its event instead. A new round or a draw
 * of the page's own game reloads, each page after a random wait within the spread, so
 * that a draw does not bring every open page back at the same moment. The bench's crowd
 * (bench/crowd.ts) plays by the same rule.
 */

/** A new round's or a draw's reloads are spread over this long. */
export const GAME_RELOAD_SPREAD_MS = 2_000;

/** The game a page shows: home the regular raffles, /quick the quick ones; other pages none. */
export type PageGame = "regular" | "quick" | undefined;

/**
 * The window (ms) within which a page reloads after `type` (an event of the raffles of
 * `kind`), 0 for at once, or undefined when the event does not reload it.
 */
export function reloadWindow(type: string, kind: string | undefined, game: PageGame): number | undefined {
  // The player's own news (an outcome, a withdrawal's state) waits for nobody.
  if (type === "notice") return 0;
  if (game !== undefined && kind === game && (type === "round" || type === "drawn")) return GAME_RELOAD_SPREAD_MS;
  return undefined;
}

/** A pot as its event tells it: the card shows it until the page's own data has caught up. */
export type LivePot = { raffleId: string; kind: string; currentPot: string; participantCount: number; ticketCount: number };

/**
 * The raffle with its pot from the live event, when the event is newer than the page's data:
 * an open raffle's tickets only grow, so the larger count is the later state.
 */
export function withLivePot<R extends { ticketCount: number; currentPot: string; participantCount: number }>(raffle: R, live: LivePot | undefined): R {
  if (!live || live.ticketCount <= raffle.ticketCount) return raffle;
  return { ...raffle, currentPot: live.currentPot, participantCount: live.participantCount, ticketCount: live.ticketCount };
}

import { onTheBoard } from "./raffle-display";

/**
 * Which live events make an open page read its data again, and how soon (ADR 090, 094).
 * Every open game page hears every event, so a reload per pot was a reload per player a
 * second while anyone played: the cards take a pot from its event instead, and a new round
 * from its own (ADR 094). A draw of the page's own game reloads, each page after a random
 * wait within the spread, so that a draw does not bring every open page back at the same
 * moment. The bench's crowd (bench/crowd.ts) plays by the same rule.
 */

/** A new round's or a draw's reloads are spread over this long. */
export const GAME_RELOAD_SPREAD_MS = 2_000;

/** The game a page shows: home the regular raffles, /quick the quick ones; other pages none. */
export type PageGame = "regular" | "quick" | undefined;

/** A new round as its event tells it: all its card shows before anyone enters (ADR 094). */
export type ToldRound = { raffleId: string; kind: string; tier: string; entryPrice: string; startTime: string; endTime: string; vipOnly: boolean };

/**
 * Whether a round event tells a new round's card. A round event without one tells of a
 * change to a raffle the page shows (closed early), or comes from an older instance.
 */
export function isToldRound(event: object): event is ToldRound {
  const told = event as Partial<ToldRound>;
  return typeof told.startTime === "string" && typeof told.endTime === "string" && typeof told.entryPrice === "string";
}

/**
 * The window (ms) within which a page reloads after `type` (an event about the raffles of
 * `event.kind`), 0 for at once, or undefined when the event does not reload it.
 */
export function reloadWindow(type: string, event: { kind?: string } | undefined, game: PageGame): number | undefined {
  // The player's own news (an outcome, a withdrawal's state) waits for nobody.
  if (type === "notice") return 0;
  if (game === undefined || event?.kind !== game) return undefined;
  if (type === "drawn") return GAME_RELOAD_SPREAD_MS;
  // A new round's card comes with its event; any other round event changed a raffle shown.
  if (type === "round" && !isToldRound(event)) return GAME_RELOAD_SPREAD_MS;
  return undefined;
}

/**
 * The page's raffles and the rounds told since its data was read (`readAt`, the server's
 * clock) that have started by `now`, in the board's order. A round the data was read after
 * the start of is the data's to show: it has it, or the round is over.
 */
export function withToldRounds<R extends { id: string; entryPrice: string; endTime: string }>(
  loaded: R[],
  readAt: number,
  rounds: Iterable<ToldRound>,
  now: number,
  card: (round: ToldRound) => R,
): R[] {
  const ids = new Set(loaded.map((r) => r.id));
  const told: R[] = [];
  for (const round of rounds) {
    const start = new Date(round.startTime).getTime();
    if (start > readAt && start <= now && !ids.has(round.raffleId)) told.push(card(round));
  }
  return told.length === 0 ? loaded : onTheBoard(loaded, told);
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

import { coinsToDecimal } from "./money";
import { inBoardOrder } from "./raffle-display";

/**
 * Which live events make an open page read its data again, and how soon (ADRs 090, 094,
 * 095). Every open game page hears every event, so a reload per pot was a reload per player
 * a second while anyone played: the cards take a pot, a new round and a draw from their
 * events instead. What a draw changes beyond its card (the winners shown, the day's figures)
 * is read again at most once a minute. The player's own news reloads at once. The bench's
 * crowd (bench/crowd.ts) plays by the same rule.
 */

/** Reloads that events of a game ask for are spread over this long, so that pages do not come back together. */
export const GAME_RELOAD_SPREAD_MS = 2_000;
/** The shortest gap between two reloads of a page. */
export const RELOAD_GAP_MS = 1_000;
/** After a draw told with its result, the page's panels are read again no sooner than this after its last read. */
export const PANELS_FRESH_MS = 60_000;

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

/** A draw as its event tells it: when, and, completed, the winner's name, prize and ticket (ADR 095). */
export type ToldDraw = {
  raffleId: string;
  kind: string;
  outcome: "completed" | "cancelled";
  drawnAt: string;
  winner?: string;
  winnerIsDemo?: boolean;
  prize?: string;
  winningTicket?: number;
};

/** Whether a drawn event tells what its card shows (an older instance's does not). */
export function isToldDraw(event: object): event is ToldDraw {
  const told = event as Partial<ToldDraw>;
  if (typeof told.drawnAt !== "string") return false;
  return told.outcome === "cancelled" || (told.outcome === "completed" && typeof told.winner === "string" && typeof told.prize === "string");
}

/** A reload an event asks for: within `within` ms (at random), and no sooner than `gap` ms after the page's last read. */
export type Reload = { within: number; gap: number };

/** The reload an event of `type` (about the raffles of `event.kind`) asks of a page showing `game`, or none. */
export function reloadFor(type: string, event: { kind?: string; [field: string]: unknown } | undefined, game: PageGame): Reload | undefined {
  // The player's own news (an outcome, a withdrawal's state) waits for nobody.
  if (type === "notice") return { within: 0, gap: RELOAD_GAP_MS };
  if (game === undefined || event?.kind !== game) return undefined;
  // A draw's card is told; the panels it changes can wait.
  if (type === "drawn") return { within: GAME_RELOAD_SPREAD_MS, gap: isToldDraw(event) ? PANELS_FRESH_MS : RELOAD_GAP_MS };
  // A new round's card comes with its event; any other round event changed a raffle shown.
  if (type === "round" && !isToldRound(event)) return { within: GAME_RELOAD_SPREAD_MS, gap: RELOAD_GAP_MS };
  return undefined;
}

/** A page's one pending reload (`reloadTimer`). */
export type ReloadTimer = { ask: (wait: number) => void; cancel: () => void };

/**
 * A page's one pending reload, for the browser and the crowd alike: `ask(wait)` keeps the
 * earliest asked for (the player's news does not wait behind the panels'), and `fire` runs
 * when it comes.
 */
export function reloadTimer(fire: () => void): ReloadTimer {
  let pending: ReturnType<typeof setTimeout> | undefined;
  let pendingAt = Infinity;
  const cancel = () => {
    clearTimeout(pending);
    pending = undefined;
    pendingAt = Infinity;
  };
  const ask = (wait: number) => {
    if (pending !== undefined && pendingAt <= Date.now() + wait) return;
    cancel();
    pendingAt = Date.now() + wait;
    pending = setTimeout(() => {
      pending = undefined;
      pendingAt = Infinity;
      fire();
    }, wait);
  };
  return { ask, cancel };
}

/** A new round's event as its raffle's row or its opening gives it (entry price in coins, times as dates). */
export function toldRound(
  raffleId: string,
  raffle: { kind: string; tier: string; entryPrice: bigint; startsAt: Date; endsAt: Date; vipOnly?: boolean },
): ToldRound {
  return {
    raffleId,
    kind: raffle.kind,
    tier: raffle.tier,
    entryPrice: coinsToDecimal(raffle.entryPrice),
    startTime: raffle.startsAt.toISOString(),
    endTime: raffle.endsAt.toISOString(),
    vipOnly: raffle.vipOnly ?? false,
  };
}

/** How long from now until `reload`, the page's data last read `sinceLast` ms ago; `random` is in [0, 1). */
export function reloadDelay(reload: Reload, sinceLast: number, random: number): number {
  return Math.max(Math.floor(reload.within * random), reload.gap - sinceLast);
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
    if (start <= readAt || start > now || ids.has(round.raffleId)) continue;
    // The data's upcoming rounds are told again by the stream: each is added once.
    ids.add(round.raffleId);
    told.push(card(round));
  }
  return told.length === 0 ? loaded : inBoardOrder([...loaded, ...told]);
}

/** A pot as its event tells it: the card shows it until the page's own data has caught up. */
export type LivePot = { raffleId: string; kind: string; currentPot: string; participantCount: number; ticketCount: number };

/**
 * The raffle with its pot from the live event, when the event is newer than the page's data:
 * an open raffle's tickets only grow, so the larger count is the later state. Tickets taken
 * back are the exception, told by their own event (`potsHeldAfter`).
 */
export function withLivePot<R extends { ticketCount: number; currentPot: string; participantCount: number }>(raffle: R, live: LivePot | undefined): R {
  if (!live || live.ticketCount <= raffle.ticketCount) return raffle;
  return { ...raffle, currentPot: live.currentPot, participantCount: live.participantCount, ticketCount: live.ticketCount };
}

/**
 * The pots a page keeps hearing after a round event: tickets taken back from a raffle (a
 * break, a closed account) lowered its pot, so the pot heard before, with more tickets, would
 * outrank the page's data read again after it. It is dropped; the event reloads the data.
 */
export function potsHeldAfter(held: ReadonlyMap<string, LivePot>, event: { [field: string]: unknown }): ReadonlyMap<string, LivePot> {
  if (event.ticketsTakenBack !== true || typeof event.raffleId !== "string" || !held.has(event.raffleId)) return held;
  const next = new Map(held);
  next.delete(event.raffleId);
  return next;
}

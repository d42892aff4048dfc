/**
 * How raffles look (spec sections 4 and 9): pure functions shared by the server
 * render and the browser, so both show the same thing.
 */
export const TIER_LABELS: Record<string, string> = {
  micro: "MICRO",
  low: "BEGINNER",
  medium: "STEADY",
  high: "POPULAR",
  premium: "PREMIUM",
  elite: "HIGH STAKES",
};

export const REGULAR_TIERS = ["micro", "low", "medium", "high", "premium", "elite"] as const;
export const QUICK_TIERS = ["lightning", "bolt", "flash", "sonic", "hyper", "ultra"] as const;

/** Under a minute left: "ENDING SOON" and "QUICK ENTER". */
export const ENDING_SOON_SECONDS = 60;
/** Quick rounds: urgent under 5 s, closed under 1 s. */
export const QUICK_URGENT_SECONDS = 5;
export const QUICK_CLOSE_SECONDS = 1;

export type RegularPhase = "open" | "ending-soon" | "drawing";
export type QuickPhase = "open" | "urgent" | "drawing";

export function regularPhase(secondsLeft: number): RegularPhase {
  if (secondsLeft <= 0) return "drawing";
  if (secondsLeft < ENDING_SOON_SECONDS) return "ending-soon";
  return "open";
}

/** `secondsLeft` exact (0.6 is under the last second), not rounded up as the countdown shows it. */
export function quickPhase(secondsLeft: number, status: string): QuickPhase {
  if (status !== "active" || secondsLeft < QUICK_CLOSE_SECONDS) return "drawing";
  if (secondsLeft < QUICK_URGENT_SECONDS) return "urgent";
  return "open";
}

/** Whole seconds left, rounded up: what a countdown shows. */
export function secondsLeft(endTime: string | Date, now: number): number {
  return Math.ceil(exactSecondsLeft(endTime, now));
}

/** Seconds left, to the millisecond. */
export function exactSecondsLeft(endTime: string | Date, now: number): number {
  return Math.max(0, (new Date(endTime).getTime() - now) / 1000);
}

/** "4:05", or "1:02:03" past an hour. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/** HH:MM:SS, always with hours (the spin wheel's countdown). */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60].map((n) => String(n).padStart(2, "0")).join(":");
}

/** Winner icon by prize in coins: crown from $10,000, star from $1,000, else bolt. */
export function winnerIcon(amountCoins: number): "crown" | "star" | "bolt" {
  if (amountCoins >= 1_000_000) return "crown";
  if (amountCoins >= 100_000) return "star";
  return "bolt";
}

/** Big-win celebrations are for real wins of $1,000 or more. */
export const BIG_WIN_COINS = 100_000;

/** 1st, 2nd, 3rd, then Nth. */
export function leaderboardBadge(rank: number): string {
  if (rank === 1) return "1st";
  if (rank === 2) return "2nd";
  if (rank === 3) return "3rd";
  return `${rank}th`;
}

/** The player's chance of winning: their tickets over all tickets, as a percentage. */
const pluralRules = new Intl.PluralRules("en-US");

/** "1 win", "2 wins": English plural rules (Intl.PluralRules), not a bare "s". */
export function counted(n: number, one: string, other: string): string {
  return `${n.toLocaleString("en-US")} ${pluralRules.select(n) === "one" ? one : other}`;
}

/**
 * What the player's tickets give them: their chance of winning, or, while no other player
 * has entered, that they will be refunded unless someone joins (a raffle needs two players).
 */
export function ticketsOutlook(myTickets: number, ticketCount: number, participantCount: number): string {
  if (myTickets > 0 && participantCount < 2) return "refunded unless another player joins";
  return `${chanceOfWinning(myTickets, ticketCount)} chance`;
}

/** A card's players in words: "No players yet", "1 player", "12 players". */
export function playersInWords(participantCount: number): string {
  return participantCount === 0 ? "No players yet" : counted(participantCount, "player", "players");
}

/**
 * The player's own stake and chance in words: "You have 3 of 12 tickets · 1 in 4". Odds read
 * as "1 in N" (about, when not exact) and as a share once they are better than even.
 */
export function yourChanceInWords(myTickets: number, ticketCount: number, participantCount: number): string {
  if (myTickets <= 0) return "You have no tickets yet";
  const stake = `You have ${myTickets.toLocaleString("en-US")} of ${counted(ticketCount, "ticket", "tickets")}`;
  if (participantCount < 2) return `${stake} · ${ticketsOutlook(myTickets, ticketCount, participantCount)}`;
  const oneIn = ticketCount / myTickets;
  const odds = oneIn < 2 ? `${chanceOfWinning(myTickets, ticketCount)} chance` : `${Number.isInteger(oneIn) ? "" : "about "}1 in ${Math.round(oneIn)}`;
  return `${stake} · ${odds}`;
}

export function chanceOfWinning(myTickets: number, ticketCount: number): string {
  if (myTickets <= 0 || ticketCount <= 0) return "0%";
  // Tenths of a percent, rounded, in integers.
  const tenths = Math.round((myTickets * 1000) / ticketCount);
  return tenths >= 100 ? `${Math.round(tenths / 10)}%` : `${Math.floor(tenths / 10)}.${tenths % 10}%`;
}

/** After a draw the card shows DRAWING... this long at least, then the result (a reveal). */
export const DRAW_REVEAL_MS = 1_500;
/** A drawn raffle's card stays this long after the draw, beside the next round. */
export const DRAWN_SHOWN_MS = 10_000;

export type CardPhase = RegularPhase | QuickPhase | "won" | "cancelled";

/**
 * What a card shows now: an active raffle by its time left (the spec's states); a drawn one
 * (completed or cancelled, `drawnAt` set) DRAWING... until DRAW_REVEAL_MS after its draw,
 * then its result.
 */
export function cardPhase(raffle: { endTime: string; status: string; drawnAt?: string }, kind: "regular" | "quick", now: number): CardPhase {
  if (raffle.drawnAt !== undefined && raffle.status !== "active") {
    if (now < new Date(raffle.drawnAt).getTime() + DRAW_REVEAL_MS) return "drawing";
    return raffle.status === "completed" ? "won" : "cancelled";
  }
  return kind === "quick" ? quickPhase(exactSecondsLeft(raffle.endTime, now), raffle.status) : regularPhase(secondsLeft(raffle.endTime, now));
}

/** Whether a drawn raffle's card is still shown at `now` (active ones always are). */
export function stillShown(raffle: { drawnAt?: string }, now: number): boolean {
  return raffle.drawnAt === undefined || now < new Date(raffle.drawnAt).getTime() + DRAWN_SHOWN_MS;
}

/** How far the raffle is through its time, 0 to 1 (the card's progress bar). */
export function elapsedShare(startTime: string, endTime: string, now: number): number {
  const start = new Date(startTime).getTime();
  const end = new Date(endTime).getTime();
  if (!(end > start)) return 1;
  return Math.min(1, Math.max(0, (now - start) / (end - start)));
}

/** The tiers whose colours app/tailwind.css defines (`.t-<tier>`: edge, chip and bar, contrast checked, WCAG AA). */
const COLOURED_TIERS = new Set(["micro", "low", "medium", "high", "premium", "elite", "lightning", "bolt", "flash", "sonic", "hyper", "ultra"]);

/** The card's class naming its tier's colours; a tier without its own colours is neutral. */
export function tierClass(tier: string): string {
  return COLOURED_TIERS.has(tier) ? `t-${tier}` : "t-neutral";
}

/** Cards in the board's order: by entry price, then end (sorted in place: pass a new array). */
export function inBoardOrder<R extends { entryPrice: string; endTime: string }>(cards: R[]): R[] {
  const cents = (r: { entryPrice: string }) => Number(r.entryPrice.replace(".", ""));
  return cards.sort((a, b) => cents(a) - cents(b) || a.endTime.localeCompare(b.endTime));
}

/**
 * The cards a raffle page shows, open and drawn moments ago, in the board's order. A raffle
 * in both (the open list read before its draw) is shown once, drawn.
 */
export function onTheBoard<A extends { id: string; entryPrice: string; endTime: string }, D extends { id: string; entryPrice: string; endTime: string }>(
  active: A[],
  drawn: D[],
): (A | D)[] {
  const drawnIds = new Set(drawn.map((r) => r.id));
  return inBoardOrder<A | D>([...active.filter((r) => !drawnIds.has(r.id)), ...drawn]);
}

/** "12s ago", "3m ago", "2h ago", "5d ago": how long ago a winner won. */
export function timeAgo(then: Date, now: Date): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - then.getTime()) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86_400)}d ago`;
}

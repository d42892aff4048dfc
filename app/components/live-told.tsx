import { createContext, useContext } from "react";
import { withToldRounds, type LivePot, type ToldDraw, type ToldRound } from "~/shared/live-reload";
import { coinsToDecimal, formatDollars, parseDollars } from "~/shared/money";
import { couldWinView } from "~/shared/prize";
import { timeAgo } from "~/shared/raffle-display";
import { winMultiplierTenths } from "~/shared/vip";
import type { RaffleCardData } from "./raffle-card";
import { useOptionalUser } from "./use-root-data";

/** What the page's live stream told (PlayerShell holds it): each raffle's last pot, new rounds and draws. */
export type LiveTold = { pots: ReadonlyMap<string, LivePot>; rounds: ReadonlyMap<string, ToldRound>; draws: ReadonlyMap<string, ToldDraw> };

export const LiveTold = createContext<LiveTold>({ pots: new Map(), rounds: new Map(), draws: new Map() });

/** The raffle's pot as last heard live, if any (shared/live-reload.ts, withLivePot). */
export function useLivePot(raffleId: string): LivePot | undefined {
  return useContext(LiveTold).pots.get(raffleId);
}

/** The draws the page's stream told of, by raffle (ADR 095). */
export function useToldDraws(): ReadonlyMap<string, ToldDraw> {
  return useContext(LiveTold).draws;
}

/**
 * The raffles with the draws told live applied to those the page's data still has open: each
 * then shows DRAWING and its result, as a raffle drawn moments ago does (ADR 095). Whether the
 * player won comes with their own news, which reloads the page at once.
 */
export function withToldDraws(raffles: RaffleCardData[], draws: ReadonlyMap<string, ToldDraw>): RaffleCardData[] {
  if (draws.size === 0) return raffles;
  return raffles.map((raffle) => {
    const draw = draws.get(raffle.id);
    if (!draw || raffle.drawnAt !== undefined) return raffle;
    const result =
      draw.outcome === "completed" ? { winner: draw.winner, winnerIsDemo: draw.winnerIsDemo, prize: draw.prize, winningTicket: draw.winningTicket } : {};
    return { ...raffle, status: draw.outcome, drawnAt: draw.drawnAt, couldWin: coinsToDecimal(0n), couldWinNow: false, ...result };
  });
}

/**
 * The winners a panel shows, with the winners of the draws told since the page's data was
 * read first, newest first, at most `limit`. `winner` makes the panel's row, or undefined
 * when the panel cannot show it.
 */
export function withToldWinners<W extends { raffleId: string }>(
  winners: W[],
  readAt: number,
  draws: ReadonlyMap<string, ToldDraw>,
  winner: (draw: ToldDraw & { winner: string; prize: string }) => W | undefined,
  limit = 10,
): W[] {
  const shown = new Set(winners.map((w) => w.raffleId));
  const told = [...draws.values()]
    .filter((d): d is ToldDraw & { winner: string; prize: string } => d.outcome === "completed" && Date.parse(d.drawnAt) > readAt && !shown.has(d.raffleId))
    .sort((a, b) => b.drawnAt.localeCompare(a.drawnAt))
    .flatMap((d) => winner(d) ?? []);
  return told.length === 0 ? winners : [...told, ...winners].slice(0, limit);
}

/** A told winner as the winners' panels show one: name, demo mark, prize, and how long ago. */
export function toldWinner(draw: ToldDraw & { winner: string; prize: string }, now: number) {
  const coins = parseDollars(draw.prize) ?? 0n;
  return {
    raffleId: draw.raffleId,
    username: draw.winner,
    isDemo: draw.winnerIsDemo === true,
    amount: formatDollars(coins),
    amountCoins: Number(coins),
    timeAgo: timeAgo(new Date(draw.drawnAt), new Date(now)),
  };
}

/**
 * The page's raffles as the live stream left them: the rounds that start after its data was
 * read, whether the data listed them (`upcoming`) or the stream told them, once started (ADR
 * 094), each as its card shows an empty round with what the player could win; then the draws
 * told (ADR 095).
 */
export function useToldBoard(loaded: RaffleCardData[], readAt: number, upcoming: ToldRound[], now: number): RaffleCardData[] {
  const { rounds, draws } = useContext(LiveTold);
  const user = useOptionalUser();
  const multiplierTenths = winMultiplierTenths(user?.vipActive ? user.vipTier : null);
  // A draw heard is the server's clock too: the round after it has started, even if this
  // page's clock, set from a load's answer, runs a few milliseconds behind.
  let heard = now;
  for (const draw of draws.values()) heard = Math.max(heard, Date.parse(draw.drawnAt));
  const withRounds = withToldRounds(loaded, readAt, [...upcoming, ...rounds.values()], heard, (round) => ({
    id: round.raffleId,
    tier: round.tier,
    entryPrice: round.entryPrice,
    currentPot: coinsToDecimal(0n),
    participantCount: 0,
    ticketCount: 0,
    startTime: round.startTime,
    endTime: round.endTime,
    status: "active" as const,
    vipOnly: round.vipOnly,
    ...couldWinView({ pot: 0n, entryPrice: parseDollars(round.entryPrice) ?? 0n, myTickets: 0, participantCount: 0, multiplierTenths }),
    myTickets: 0,
  }));
  return withToldDraws(withRounds, draws);
}

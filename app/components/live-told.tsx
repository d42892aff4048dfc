import { createContext, useContext } from "react";
import { withToldRounds, type LivePot, type ToldRound } from "~/shared/live-reload";
import { coinsToDecimal, parseDollars } from "~/shared/money";
import { couldWinView } from "~/shared/prize";
import { winMultiplierTenths } from "~/shared/vip";
import type { RaffleCardData } from "./raffle-card";
import { useOptionalUser } from "./use-root-data";

/** What the page's live stream told (PlayerShell holds it): each raffle's last pot, and the new rounds. */
export type LiveTold = { pots: ReadonlyMap<string, LivePot>; rounds: ReadonlyMap<string, ToldRound> };

export const LiveTold = createContext<LiveTold>({ pots: new Map(), rounds: new Map() });

/** The raffle's pot as last heard live, if any (shared/live-reload.ts, withLivePot). */
export function useLivePot(raffleId: string): LivePot | undefined {
  return useContext(LiveTold).pots.get(raffleId);
}

/**
 * The page's raffles with the new rounds its stream told of since its data was read, once
 * started (ADR 094): each as its card shows an empty round, with what the player could win.
 */
export function useWithToldRounds(loaded: RaffleCardData[], readAt: number, now: number): RaffleCardData[] {
  const { rounds } = useContext(LiveTold);
  const user = useOptionalUser();
  const multiplierTenths = winMultiplierTenths(user?.vipActive ? user.vipTier : null);
  return withToldRounds(loaded, readAt, rounds.values(), now, (round) => ({
    id: round.raffleId,
    tier: round.tier,
    entryPrice: round.entryPrice,
    currentPot: coinsToDecimal(0n),
    participantCount: 0,
    ticketCount: 0,
    startTime: round.startTime,
    endTime: round.endTime,
    status: "active",
    vipOnly: round.vipOnly,
    ...couldWinView({ pot: 0n, entryPrice: parseDollars(round.entryPrice) ?? 0n, myTickets: 0, participantCount: 0, multiplierTenths }),
    myTickets: 0,
  }));
}

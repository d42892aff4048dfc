import { useRevalidator, type ShouldRevalidateFunction } from "@remix-run/react";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { isCardEntryAnswer, type CardEntryAnswer } from "~/shared/card-answer";

/**
 * What the cards' own entries answered (ADR 093): the player's coins since the root's data
 * loaded, and their tickets per raffle. The page's loaders do not run after a card's entry;
 * the answer tells the header and the cards instead.
 */
type Told = {
  /** The coins an entry answered, over the root data they are newer than; a reload of that data replaces them. */
  balances: { over: object; coins: CardEntryAnswer["balances"] } | null;
  /** Tickets only grow while a raffle is open, so the larger of a card's loaded count and the told one is the newer. */
  tickets: ReadonlyMap<string, number>;
  tell: (answer: CardEntryAnswer) => void;
};

const ToldContext = createContext<Told>({ balances: null, tickets: new Map(), tell: () => {} });

/** The player's coins in the root's data. */
const coinsIn = (root: object) => (root as { user?: { coinBalance: number } | null }).user?.coinBalance;

/** Held by the root route, over its loader's data (`root`). */
export function EntryAnswers({ root, children }: { root: object; children: ReactNode }) {
  const [balances, setBalances] = useState<(Told["balances"] & { before?: number }) | null>(null);
  const [tickets, setTickets] = useState<ReadonlyMap<string, number>>(new Map());
  // The answer's coins are newer than the root's data shown when it comes. A reload of that
  // data under way then (the live stream's, after a draw or a round) may have read the coins
  // from before the entry.
  const reloading = useRevalidator().state === "loading";
  const shown = useRef({ root, reloading });
  useEffect(() => {
    shown.current = { root, reloading };
  }, [root, reloading]);
  const tell = useCallback((answer: CardEntryAnswer) => {
    const { root: over, reloading } = shown.current;
    setBalances({ over, coins: answer.balances, before: reloading ? coinsIn(over) : undefined });
    const { raffleId, myTickets } = answer.entered;
    setTickets((told) => ((told.get(raffleId) ?? 0) >= myTickets ? told : new Map(told).set(raffleId, myTickets)));
  }, []);
  // That load's data, when it still shows the coins from before the entry, is older than the
  // answer: the answer stays over it (set while rendering, so the old coins never show).
  if (balances?.before !== undefined && balances.over !== root) {
    setBalances(coinsIn(root) === balances.before ? { over: root, coins: balances.coins } : null);
  }
  const value = useMemo(() => ({ balances, tickets, tell }), [balances, tickets, tell]);
  return <ToldContext.Provider value={value}>{children}</ToldContext.Provider>;
}

/** Takes a card's answer: its coins for the header, its tickets for every card of the raffle. */
export function useTellEntry() {
  return useContext(ToldContext).tell;
}

/** The player's coins as an entry answered them, while the root's data is the one they are newer than. */
export function useToldBalances(root: object | undefined): CardEntryAnswer["balances"] | null {
  const { balances } = useContext(ToldContext);
  return balances && balances.over === root ? balances.coins : null;
}

/** The player's tickets in the raffle as a card's entry answered them, if any did. */
export function useToldTickets(raffleId: string): number | undefined {
  return useContext(ToldContext).tickets.get(raffleId);
}

/** Every raffle a card's entry answered for, with the player's tickets in it. */
export function useAllToldTickets(): ReadonlyMap<string, number> {
  return useContext(ToldContext).tickets;
}

/** A card's entry answered with its data: no loader runs again (the answer told what changed). */
export const keptAfterCardEntry: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  isCardEntryAnswer(actionResult) ? false : defaultShouldRevalidate;

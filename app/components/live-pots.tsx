import { createContext, useContext } from "react";
import type { LivePot } from "~/shared/live-reload";

/** The pots the page's live stream has told of, by raffle (PlayerShell holds them; cards show them). */
export const LivePots = createContext<ReadonlyMap<string, LivePot>>(new Map());

/** The raffle's pot as last heard live, if any (shared/live-reload.ts, withLivePot). */
export function useLivePot(raffleId: string): LivePot | undefined {
  return useContext(LivePots).get(raffleId);
}

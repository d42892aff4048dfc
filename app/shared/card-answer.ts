import type { ToastMessage } from "./toast";

/**
 * The field a hydrated raffle card's entry form adds: its fetcher takes the entry's answer
 * as data, and no loader of the page runs again (ADR 093). A plain form (no JavaScript)
 * does not send it and is answered with the redirect and its flash toast.
 */
export const CARD_ANSWER = { name: "answer", value: "card" } as const;

/** A card's entry, answered: the player's tickets in the raffle, their coins, and the spec's toast. */
export type CardEntryAnswer = {
  entered: { raffleId: string; myTickets: number };
  balances: { coinBalance: number; cashBalance: number; bonusBalance: number };
  toast: Omit<ToastMessage, "id">;
};

export function isCardEntryAnswer(value: unknown): value is CardEntryAnswer {
  return typeof value === "object" && value !== null && "entered" in value && "balances" in value && "toast" in value;
}

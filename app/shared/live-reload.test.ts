import { describe, expect, it } from "vitest";
import { GAME_RELOAD_SPREAD_MS, reloadWindow, withLivePot, type LivePot } from "./live-reload";

describe("reloadWindow", () => {
  it("reloads at once for the player's news, on every page", () => {
    expect(reloadWindow("notice", undefined, undefined)).toBe(0);
    expect(reloadWindow("notice", undefined, "regular")).toBe(0);
    expect(reloadWindow("notice", undefined, "quick")).toBe(0);
  });

  it("spreads the reloads after a new round or a draw of the page's own game", () => {
    expect(reloadWindow("round", "regular", "regular")).toBe(GAME_RELOAD_SPREAD_MS);
    expect(reloadWindow("drawn", "regular", "regular")).toBe(GAME_RELOAD_SPREAD_MS);
    expect(reloadWindow("round", "quick", "quick")).toBe(GAME_RELOAD_SPREAD_MS);
    expect(reloadWindow("drawn", "quick", "quick")).toBe(GAME_RELOAD_SPREAD_MS);
  });

  it("does not reload for the other game's rounds, for pages without a game, or for a pot", () => {
    expect(reloadWindow("drawn", "quick", "regular")).toBeUndefined();
    expect(reloadWindow("round", "regular", "quick")).toBeUndefined();
    expect(reloadWindow("drawn", "regular", undefined)).toBeUndefined();
    expect(reloadWindow("pot", "regular", "regular")).toBeUndefined();
    expect(reloadWindow("pot", "quick", "quick")).toBeUndefined();
  });
});

describe("withLivePot", () => {
  const loaded = { id: "r1", currentPot: "1.00", participantCount: 3, ticketCount: 20, entryPrice: "0.05" };
  const live = (ticketCount: number): LivePot => ({ raffleId: "r1", kind: "regular", currentPot: "1.25", participantCount: 4, ticketCount });

  it("shows the live pot when it counts more tickets than the page's data", () => {
    expect(withLivePot(loaded, live(25))).toEqual({ ...loaded, currentPot: "1.25", participantCount: 4, ticketCount: 25 });
  });

  it("keeps the page's data when it is as new as the event or newer, or nothing was heard", () => {
    expect(withLivePot(loaded, live(20))).toBe(loaded);
    expect(withLivePot(loaded, live(19))).toBe(loaded);
    expect(withLivePot(loaded, undefined)).toBe(loaded);
  });
});

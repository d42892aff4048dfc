import { describe, expect, it, vi } from "vitest";
import {
  GAME_RELOAD_SPREAD_MS,
  PANELS_FRESH_MS,
  potsHeldAfter,
  RELOAD_GAP_MS,
  reloadDelay,
  reloadFor,
  reloadTimer,
  withLivePot,
  withToldRounds,
  type LivePot,
  type ToldDraw,
  type ToldRound,
} from "./live-reload";

describe("reloadFor and reloadDelay", () => {
  const round: ToldRound = {
    raffleId: "r2",
    kind: "quick",
    tier: "lightning",
    entryPrice: "0.05",
    startTime: "2026-11-29T10:00:30.000Z",
    endTime: "2026-11-29T10:01:00.000Z",
    vipOnly: false,
  };
  const draw: ToldDraw = {
    raffleId: "r1",
    kind: "quick",
    outcome: "completed",
    drawnAt: "2026-11-29T10:00:30.200Z",
    winner: "ann",
    prize: "0.05",
    winningTicket: 1,
  };
  const soon = { within: GAME_RELOAD_SPREAD_MS, gap: RELOAD_GAP_MS };

  it("reloads at once for the player's news, on every page", () => {
    expect(reloadFor("notice", undefined, undefined)).toEqual({ within: 0, gap: RELOAD_GAP_MS });
    expect(reloadFor("notice", undefined, "regular")).toEqual({ within: 0, gap: RELOAD_GAP_MS });
    expect(reloadFor("notice", undefined, "quick")).toEqual({ within: 0, gap: RELOAD_GAP_MS });
  });

  it("reads the panels again at most once a minute after a draw told with its result", () => {
    expect(reloadFor("drawn", draw, "quick")).toEqual({ within: GAME_RELOAD_SPREAD_MS, gap: PANELS_FRESH_MS });
    expect(reloadFor("drawn", { raffleId: "r1", kind: "regular", outcome: "cancelled", drawnAt: draw.drawnAt }, "regular")).toEqual({
      within: GAME_RELOAD_SPREAD_MS,
      gap: PANELS_FRESH_MS,
    });
  });

  it("reloads soon, spread, after a draw or a round event that tells no card (an older instance's, a raffle closed early)", () => {
    expect(reloadFor("drawn", { kind: "quick", outcome: "completed", prize: "0.05" }, "quick")).toEqual(soon);
    expect(reloadFor("round", { kind: "regular" }, "regular")).toEqual(soon);
  });

  it("does not reload for a new round told with its card, the other game's events, pages without a game, or a pot", () => {
    expect(reloadFor("round", round, "quick")).toBeUndefined();
    expect(reloadFor("drawn", draw, "regular")).toBeUndefined();
    expect(reloadFor("round", { kind: "regular" }, "quick")).toBeUndefined();
    expect(reloadFor("drawn", { kind: "regular" }, undefined)).toBeUndefined();
    expect(reloadFor("pot", { kind: "regular" }, "regular")).toBeUndefined();
    expect(reloadFor("pot", undefined, "quick")).toBeUndefined();
  });

  it("waits a random share of the spread, and at least the gap since the page's last read", () => {
    expect(reloadDelay(soon, 10_000, 0.5)).toBe(1_000);
    expect(reloadDelay(soon, 200, 0)).toBe(800);
    expect(reloadDelay({ within: GAME_RELOAD_SPREAD_MS, gap: PANELS_FRESH_MS }, 15_000, 0.25)).toBe(45_000);
    expect(reloadDelay({ within: GAME_RELOAD_SPREAD_MS, gap: PANELS_FRESH_MS }, 90_000, 0.25)).toBe(500);
    expect(reloadDelay({ within: 0, gap: RELOAD_GAP_MS }, 5_000, 0.9)).toBe(0);
  });
});

describe("withToldRounds", () => {
  const readAt = Date.parse("2026-11-29T10:00:29.000Z");
  const told = (raffleId: string, entryPrice: string, startTime: string): ToldRound => ({
    raffleId,
    kind: "quick",
    tier: "lightning",
    entryPrice,
    startTime,
    endTime: new Date(Date.parse(startTime) + 30_000).toISOString(),
    vipOnly: false,
  });
  const card = (round: ToldRound) => ({ id: round.raffleId, entryPrice: round.entryPrice, endTime: round.endTime });
  const loaded = [
    { id: "a1", entryPrice: "0.05", endTime: "2026-11-29T10:00:30.000Z" },
    { id: "b1", entryPrice: "0.10", endTime: "2026-11-29T10:00:30.000Z" },
  ];
  const next = [told("a2", "0.05", "2026-11-29T10:00:30.000Z"), told("b2", "0.10", "2026-11-29T10:00:30.000Z")];

  it("adds the rounds told since the data was read once they have started, in the board's order", () => {
    const board = withToldRounds(loaded, readAt, next, Date.parse("2026-11-29T10:00:30.000Z"), card);
    expect(board.map((r) => r.id)).toEqual(["a1", "a2", "b1", "b2"]);
  });

  it("waits for a round's start, and leaves the data as it is when nothing is to add", () => {
    expect(withToldRounds(loaded, readAt, next, Date.parse("2026-11-29T10:00:29.900Z"), card)).toBe(loaded);
    expect(withToldRounds(loaded, readAt, [], Date.parse("2026-11-29T10:00:31.000Z"), card)).toBe(loaded);
  });

  it("adds a round once when the data listed it as upcoming and the stream told it too", () => {
    const board = withToldRounds(loaded, readAt, [...next, ...next], Date.parse("2026-11-29T10:00:31.000Z"), card);
    expect(board.map((r) => r.id)).toEqual(["a1", "a2", "b1", "b2"]);
  });

  it("leaves to the data a round it holds, and one started before it was read", () => {
    const withA2 = [...loaded, { id: "a2", entryPrice: "0.05", endTime: next[0]!.endTime }];
    expect(withToldRounds(withA2, readAt, next.slice(0, 1), Date.parse("2026-11-29T10:00:31.000Z"), card)).toBe(withA2);
    // Read after b2 started, the data does not have it: it is over (or gone), not new.
    const later = Date.parse("2026-11-29T10:00:40.000Z");
    expect(withToldRounds(loaded, later, next, Date.parse("2026-11-29T10:00:41.000Z"), card)).toBe(loaded);
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

describe("potsHeldAfter", () => {
  const pot = (raffleId: string, ticketCount: number): LivePot => ({ raffleId, kind: "regular", currentPot: "1.25", participantCount: 4, ticketCount });
  const held: ReadonlyMap<string, LivePot> = new Map([
    ["r1", pot("r1", 25)],
    ["r2", pot("r2", 9)],
  ]);

  it("drops the pot heard for a raffle whose tickets were taken back, so that its data read again shows", () => {
    const after = potsHeldAfter(held, { raffleId: "r1", kind: "regular", tier: "bronze", ticketsTakenBack: true });
    expect([...after.keys()]).toEqual(["r2"]);
    // The data read again after the refund counts fewer tickets than the pot heard before it.
    expect(withLivePot({ id: "r1", currentPot: "1.00", participantCount: 3, ticketCount: 20 }, after.get("r1")).ticketCount).toBe(20);
  });

  it("keeps every pot for other round events and for raffles it holds no pot of", () => {
    expect(potsHeldAfter(held, { raffleId: "r1", kind: "regular", tier: "bronze" })).toBe(held);
    expect(potsHeldAfter(held, { raffleId: "r3", ticketsTakenBack: true })).toBe(held);
  });
});

describe("reloadTimer", () => {
  it("keeps the earliest reload asked for, fires once, and can be cancelled", () => {
    vi.useFakeTimers();
    try {
      const fire = vi.fn();
      const timer = reloadTimer(fire);
      timer.ask(60_000);
      timer.ask(500);
      timer.ask(2_000);
      vi.advanceTimersByTime(499);
      expect(fire).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(fire).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(120_000);
      expect(fire).toHaveBeenCalledTimes(1);
      timer.ask(100);
      timer.cancel();
      vi.advanceTimersByTime(1_000);
      expect(fire).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

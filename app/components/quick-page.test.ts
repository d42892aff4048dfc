import { describe, expect, it } from "vitest";
import { quickBoard } from "./quick-page";
import type { RaffleCardData } from "./raffle-card";

const NOW = Date.parse("2026-11-27T12:00:30.000Z");
const round = (id: string, entryPrice: string, endTime: string, drawnAt?: string): RaffleCardData => ({
  id,
  tier: "lightning",
  entryPrice,
  currentPot: "0.00",
  participantCount: 0,
  ticketCount: 0,
  startTime: "2026-11-27T12:00:00.000Z",
  endTime,
  status: drawnAt ? "completed" : "active",
  vipOnly: false,
  couldWin: "0.00",
  couldWinNow: false,
  ...(drawnAt ? { drawnAt, winner: "bob", prize: "0.05" } : {}),
});

describe("the quick page's board", () => {
  it("gives each price one slot with its live round, and puts the rounds just drawn in the strip, newest first", () => {
    const drawnA = round("a1", "0.05", "2026-11-27T12:00:00.000Z", "2026-11-27T12:00:25.000Z");
    const liveA = round("a2", "0.05", "2026-11-27T12:00:58.000Z");
    const drawnB = round("b1", "0.10", "2026-11-27T12:00:00.000Z", "2026-11-27T12:00:28.000Z");
    const liveB = round("b2", "0.10", "2026-11-27T12:00:58.000Z");
    const board = quickBoard([drawnA, liveA, drawnB, liveB], NOW);
    expect(board.slots.map((r) => r.id)).toEqual(["a2", "b2"]);
    expect(board.justDrawn.map((r) => r.id)).toEqual(["b1", "a1"]);
  });

  it("keeps a price's slot with its round just drawn until the next round opens", () => {
    const drawn = round("a1", "0.05", "2026-11-27T12:00:29.000Z", "2026-11-27T12:00:29.500Z");
    expect(quickBoard([drawn], NOW)).toEqual({ slots: [drawn], justDrawn: [] });
  });

  it("shows the open round rather than one ended and not yet drawn, which waits for its draw in the strip", () => {
    const closing = round("a1", "0.05", "2026-11-27T12:00:30.000Z");
    const open = round("a2", "0.05", "2026-11-27T12:01:00.000Z");
    const old = round("a0", "0.05", "2026-11-27T11:59:30.000Z", "2026-11-27T12:00:00.000Z");
    expect(quickBoard([old, closing, open], NOW)).toEqual({ slots: [open], justDrawn: [closing] });
  });

  it("orders the strip by draw, or by end for a round still drawing, and keeps a round still open out of it", () => {
    const drawing = round("b1", "0.10", "2026-11-27T12:00:29.000Z");
    const drawn = round("a1", "0.05", "2026-11-27T12:00:00.000Z", "2026-11-27T12:00:28.000Z");
    const earlier = round("a0", "0.05", "2026-11-27T11:59:58.000Z");
    const open = [round("a2", "0.05", "2026-11-27T12:01:00.000Z"), round("b2", "0.10", "2026-11-27T12:01:00.000Z")];
    const notYetOver = round("c1", "0.25", "2026-11-27T12:00:40.000Z");
    const board = quickBoard([earlier, drawn, drawing, notYetOver, ...open], NOW);
    expect(board.slots.map((r) => r.id)).toEqual(["a2", "b2", "c1"]);
    expect(board.justDrawn.map((r) => r.id)).toEqual(["b1", "a1", "a0"]);
  });
});

import { describe, expect, it } from "vitest";
import {
  chanceOfWinning,
  counted,
  ticketsOutlook,
  playersInWords,
  yourChanceInWords,
  formatClock,
  formatCountdown,
  leaderboardBadge,
  onTheBoard,
  quickPhase,
  regularPhase,
  exactSecondsLeft,
  secondsLeft,
  winnerIcon,
} from "./raffle-display";

describe("countdown thresholds", () => {
  it("shows ENDING SOON under 60 s and DRAWING at 0 for regular raffles", () => {
    expect(regularPhase(61)).toBe("open");
    expect(regularPhase(60)).toBe("open");
    expect(regularPhase(59)).toBe("ending-soon");
    expect(regularPhase(1)).toBe("ending-soon");
    expect(regularPhase(0)).toBe("drawing");
  });

  it("marks quick rounds urgent under 5 s and closes them under 1 s or when not active", () => {
    expect(quickPhase(5, "active")).toBe("open");
    expect(quickPhase(4, "active")).toBe("urgent");
    expect(quickPhase(1, "active")).toBe("urgent");
    expect(quickPhase(0, "active")).toBe("drawing");
    // Under the last second, though the countdown (rounded up) still shows 1.
    expect(quickPhase(exactSecondsLeft(new Date(10_600), 10_000), "active")).toBe("drawing");
    expect(quickPhase(exactSecondsLeft(new Date(11_000), 10_000), "active")).toBe("urgent");
    expect(quickPhase(20, "completed")).toBe("drawing");
  });

  it("counts whole seconds left, never below zero", () => {
    expect(secondsLeft(new Date(10_500), 10_000)).toBe(1);
    expect(secondsLeft(new Date(10_000), 12_000)).toBe(0);
  });

  it("formats countdowns", () => {
    expect(formatCountdown(245)).toBe("4:05");
    expect(formatCountdown(3723)).toBe("1:02:03");
    expect(formatClock(3723)).toBe("01:02:03");
    expect(formatClock(0)).toBe("00:00:00");
  });
});

describe("winner icons", () => {
  it("crown from $10,000, star from $1,000, else bolt", () => {
    expect(winnerIcon(1_000_000)).toBe("crown");
    expect(winnerIcon(999_999)).toBe("star");
    expect(winnerIcon(100_000)).toBe("star");
    expect(winnerIcon(99_999)).toBe("bolt");
    expect(winnerIcon(0)).toBe("bolt");
  });
});

describe("leaderboard badges", () => {
  it("1st, 2nd, 3rd, then Nth", () => {
    expect([1, 2, 3, 4, 10, 11].map(leaderboardBadge)).toEqual(["1st", "2nd", "3rd", "4th", "10th", "11th"]);
  });
});

describe("chance of winning", () => {
  it("is the player's share of the tickets", () => {
    expect(chanceOfWinning(1, 4)).toBe("25%");
    expect(chanceOfWinning(1, 300)).toBe("0.3%");
    expect(chanceOfWinning(0, 10)).toBe("0%");
  });
});

describe("counted", () => {
  it("follows English plural rules", () => {
    expect(counted(1, "win", "wins")).toBe("1 win");
    expect(counted(0, "win", "wins")).toBe("0 wins");
    expect(counted(2, "open ticket was", "open tickets were")).toBe("2 open tickets were");
    expect(counted(1500, "win", "wins")).toBe("1,500 wins");
  });
});

describe("ticketsOutlook", () => {
  it("tells a lone player they will be refunded unless someone joins, not that they hold 100%", () => {
    expect(ticketsOutlook(3, 3, 1)).toBe("refunded unless another player joins");
    expect(ticketsOutlook(1, 4, 2)).toBe("25% chance");
    expect(ticketsOutlook(0, 4, 2)).toBe("0% chance");
  });
});

describe("a card's players and chance in words", () => {
  it("counts the players", () => {
    expect(playersInWords(0)).toBe("No players yet");
    expect(playersInWords(1)).toBe("1 player");
    expect(playersInWords(1200)).toBe("1,200 players");
  });

  it("says the player's tickets and odds as one in so many", () => {
    expect(yourChanceInWords(3, 12, 4)).toBe("You have 3 of 12 tickets · 1 in 4");
    expect(yourChanceInWords(2, 7, 3)).toBe("You have 2 of 7 tickets · about 1 in 4");
    expect(yourChanceInWords(2, 3, 2)).toBe("You have 2 of 3 tickets · 67% chance");
    expect(yourChanceInWords(1, 1, 1)).toBe("You have 1 of 1 ticket · refunded unless another player joins");
    expect(yourChanceInWords(0, 5, 2)).toBe("You have no tickets yet");
  });
});

describe("onTheBoard", () => {
  const card = (id: string, entryPrice: string, endTime: string) => ({ id, entryPrice, endTime });
  it("orders the cards by entry price, then end", () => {
    const board = onTheBoard(
      [card("b", "0.10", "2026-11-29T10:01:00Z"), card("a2", "0.05", "2026-11-29T10:01:00Z")],
      [card("a1", "0.05", "2026-11-29T10:00:30Z")],
    );
    expect(board.map((r) => r.id)).toEqual(["a1", "a2", "b"]);
  });

  it("shows a raffle that is in both lists once, as drawn", () => {
    const drawn = { ...card("a1", "0.05", "2026-11-29T10:00:30Z"), drawnAt: "2026-11-29T10:00:31Z" };
    const board = onTheBoard([card("a1", "0.05", "2026-11-29T10:00:30Z"), card("a2", "0.05", "2026-11-29T10:01:00Z")], [drawn]);
    expect(board).toEqual([drawn, card("a2", "0.05", "2026-11-29T10:01:00Z")]);
  });
});

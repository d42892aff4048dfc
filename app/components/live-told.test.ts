import { describe, expect, it } from "vitest";
import type { ToldDraw } from "~/shared/live-reload";
import { toldWinner, withToldDraws, withToldWinners } from "./live-told";
import type { RaffleCardData } from "./raffle-card";

const open = (id: string): RaffleCardData => ({
  id,
  tier: "lightning",
  entryPrice: "0.05",
  currentPot: "0.10",
  participantCount: 2,
  ticketCount: 2,
  startTime: "2026-11-29T10:00:00.000Z",
  endTime: "2026-11-29T10:00:30.000Z",
  status: "active",
  vipOnly: false,
  couldWin: "0.05",
  couldWinNow: true,
  myTickets: 1,
});
const won: ToldDraw = {
  raffleId: "a",
  kind: "quick",
  outcome: "completed",
  drawnAt: "2026-11-29T10:00:30.200Z",
  winner: "ann",
  prize: "0.05",
  winningTicket: 1,
};
const cancelled: ToldDraw = { raffleId: "b", kind: "quick", outcome: "cancelled", drawnAt: "2026-11-29T10:00:30.300Z" };
const draws = new Map([
  ["a", won],
  ["b", cancelled],
]);

describe("withToldDraws", () => {
  it("shows a draw told live on a raffle the page's data has open: drawn when, and the winner, prize and ticket", () => {
    const [a, b, c] = withToldDraws([open("a"), open("b"), open("c")], draws);
    expect(a).toMatchObject({
      status: "completed",
      drawnAt: won.drawnAt,
      winner: "ann",
      prize: "0.05",
      winningTicket: 1,
      couldWin: "0.00",
      couldWinNow: false,
    });
    expect(a!.youWon).toBeUndefined();
    expect(b).toMatchObject({ status: "cancelled", drawnAt: cancelled.drawnAt, couldWin: "0.00" });
    expect(b!.winner).toBeUndefined();
    expect(c).toEqual(open("c"));
  });

  it("leaves a raffle the data has drawn already as the data says, and the list itself when nothing was told", () => {
    const drawn = { ...open("a"), status: "completed" as const, drawnAt: "2026-11-29T10:00:30.250Z", winner: "ann", prize: "0.05", youWon: true };
    expect(withToldDraws([drawn], draws)[0]).toBe(drawn);
    const list = [open("a")];
    expect(withToldDraws(list, new Map())).toBe(list);
  });
});

describe("withToldWinners", () => {
  const now = Date.parse("2026-11-29T10:00:35.000Z");
  const readAt = Date.parse("2026-11-29T10:00:29.000Z");
  const row = (raffleId: string) => ({ raffleId, username: "bob", amount: "$1.00", timeAgo: "1m ago" });

  it("puts the winners told since the data was read first, newest first, as the panel shows them, keeping as many as it held", () => {
    const later: ToldDraw = { ...won, raffleId: "c", drawnAt: "2026-11-29T10:00:31.000Z", winner: "cy", winnerIsDemo: true, prize: "1250.00" };
    const winners = withToldWinners(
      Array.from({ length: 10 }, (_, i) => row(`old${i}`)),
      readAt,
      new Map([...draws, ["c", later]]),
      (draw) => toldWinner(draw, now),
    );
    expect(winners.map((w) => w.raffleId)).toEqual(["c", "a", "old0", "old1", "old2", "old3", "old4", "old5", "old6", "old7"]);
    expect(winners[0]).toEqual({ raffleId: "c", username: "cy", isDemo: true, amount: "$1,250.00", amountCoins: 125_000, timeAgo: "4s ago" });
  });

  it("leaves out draws the data was read after, winners it shows already, and rows the panel cannot make", () => {
    const winners = [row("x")];
    expect(withToldWinners(winners, Date.parse("2026-11-29T10:00:31.000Z"), draws, (draw) => toldWinner(draw, now))).toBe(winners);
    expect(withToldWinners([row("a")], readAt, draws, (draw) => toldWinner(draw, now)).map((w) => w.raffleId)).toEqual(["a"]);
    expect(withToldWinners(winners, readAt, draws, () => undefined)).toBe(winners);
  });
});

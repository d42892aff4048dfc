import { createRemixStub } from "@remix-run/testing";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { LivePot } from "~/shared/live-reload";
import { LiveTold } from "./live-told";
import { RaffleCard, type RaffleCardData } from "./raffle-card";

const now = Date.parse("2026-11-29T10:00:00Z");
const round: RaffleCardData = {
  id: "r1",
  tier: "micro",
  entryPrice: "0.05",
  currentPot: "1.00",
  participantCount: 3,
  ticketCount: 20,
  startTime: new Date(now - 10_000).toISOString(),
  endTime: new Date(now + 20_000).toISOString(),
  status: "active",
  vipOnly: false,
  couldWin: "0.50",
  couldWinNow: true,
  myTickets: 2,
};

function renderCard(pots: LivePot[]) {
  const Stub = createRemixStub([
    {
      path: "/quick",
      Component: () => (
        <LiveTold.Provider value={{ pots: new Map(pots.map((pot) => [pot.raffleId, pot])), rounds: new Map(), draws: new Map() }}>
          <RaffleCard raffle={round} kind="quick" balance={1000} now={now} />
        </LiveTold.Provider>
      ),
    },
  ]);
  return render(<Stub initialEntries={["/quick"]} />);
}

describe("a raffle card with the live stream's pots", () => {
  it("shows the page's data while nothing newer was heard", async () => {
    renderCard([{ raffleId: "r1", kind: "quick", currentPot: "0.95", participantCount: 2, ticketCount: 19 }]);
    expect(await screen.findByTestId("players")).toHaveTextContent("3 players");
    expect(screen.getByTestId("my-tickets")).toHaveTextContent("of 20 tickets");
    expect(screen.getByTestId("could-win")).toHaveTextContent("$0.50");
  });

  it("shows a newer pot's players and tickets, and what the player could win from it", async () => {
    renderCard([
      { raffleId: "r1", kind: "quick", currentPot: "2.00", participantCount: 5, ticketCount: 40 },
      { raffleId: "other", kind: "quick", currentPot: "9.00", participantCount: 9, ticketCount: 180 },
    ]);
    expect(await screen.findByTestId("players")).toHaveTextContent("5 players");
    expect(screen.getByTestId("my-tickets")).toHaveTextContent("of 40 tickets");
    // The player is in it with others: half the new pot if it were drawn now.
    expect(screen.getByTestId("could-win")).toHaveTextContent("$1.00");
  });
});

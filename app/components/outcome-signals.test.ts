import { describe, expect, it } from "vitest";
import { drawnMessage } from "./outcome-signals";

describe("what a notification says about a drawn round", () => {
  it("tells the winner what they won in coins, others who won, and a lone player that they were refunded", () => {
    const drawn = { raffleId: "r", kind: "quick", outcome: "completed" as const, winner: "alice", prize: "12.34" };
    expect(drawnMessage(drawn, "alice")).toEqual({ title: "You won!", body: "Congratulations! You won 1,234 coins!" });
    expect(drawnMessage(drawn, "bob").body).toBe("alice won 1,234 coins. Better luck next round!");
    expect(drawnMessage(drawn, null).title).toBe("Quick raffle drawn");
    expect(drawnMessage({ raffleId: "r", kind: "quick", outcome: "cancelled" }, "alice").body).toContain("refunded");
  });
});

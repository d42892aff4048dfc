import { describe, expect, it } from "vitest";
import { outcomeToast } from "./outcome-toasts.server";

const at = new Date("2026-11-25T04:00:00Z");

describe("outcomeToast", () => {
  it("congratulates a winner with the spec's text, in coins", () => {
    expect(outcomeToast([{ outcome: "won", amount: 1250n, tickets: 3, tier: "micro", kind: "regular", drawnAt: at }])).toEqual({
      type: "success",
      title: "Congratulations! You won 1,250 coins!",
      description: "You won the MICRO raffle. The prize is in your balance.",
      celebrate: true,
    });
  });

  it("tells a refunded player why, with plural rules", () => {
    expect(outcomeToast([{ outcome: "refunded", amount: 5n, tickets: 1, tier: "lightning", kind: "quick", drawnAt: at }])).toEqual({
      type: "info",
      title: "Raffle Cancelled",
      description: "Fewer than two players joined the LIGHTNING quick round: your 1 ticket was refunded (5 coins).",
    });
    expect(
      outcomeToast([
        { outcome: "refunded", amount: 10n, tickets: 2, tier: "bolt", kind: "quick", drawnAt: at },
        { outcome: "refunded", amount: 1n, tickets: 1, tier: "micro", kind: "regular", drawnAt: at },
      ])?.description,
    ).toBe("Fewer than two players joined 2 of your raffles: 11 coins were refunded.");
  });

  it("puts wins first and mentions refunds with them; nothing for nothing", () => {
    const toast = outcomeToast([
      { outcome: "won", amount: 10n, tickets: 1, tier: "bolt", kind: "quick", drawnAt: at },
      { outcome: "won", amount: 1n, tickets: 1, tier: "micro", kind: "regular", drawnAt: at },
      { outcome: "refunded", amount: 5n, tickets: 1, tier: "lightning", kind: "quick", drawnAt: at },
    ]);
    expect(toast?.title).toBe("Congratulations! You won 11 coins!");
    expect(toast?.description).toBe(
      "You won 2 raffles. The prize is in your balance. Fewer than two players joined the LIGHTNING quick round: your 1 ticket was refunded (5 coins).",
    );
    expect(outcomeToast([])).toBeNull();
  });
});

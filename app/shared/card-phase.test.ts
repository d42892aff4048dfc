import { describe, expect, it } from "vitest";
import { cardPhase, DRAW_REVEAL_MS } from "./raffle-display";

describe("cardPhase", () => {
  const end = Date.parse("2026-11-25T04:00:00Z");
  const endTime = new Date(end).toISOString();
  it("shows the spec's states of an open raffle: ENDING SOON under 60 s, DRAWING at 0", () => {
    expect(cardPhase({ endTime, status: "active" }, "regular", end - 61_000)).toBe("open");
    expect(cardPhase({ endTime, status: "active" }, "regular", end - 59_000)).toBe("ending-soon");
    expect(cardPhase({ endTime, status: "active" }, "regular", end)).toBe("drawing");
    expect(cardPhase({ endTime, status: "active" }, "quick", end - 4_000)).toBe("urgent");
    expect(cardPhase({ endTime, status: "active" }, "quick", end - 600)).toBe("drawing");
  });

  it("keeps DRAWING until the reveal, then shows the result", () => {
    const drawnAt = new Date(end + 200).toISOString();
    expect(cardPhase({ endTime, status: "completed", drawnAt }, "quick", end + 200 + DRAW_REVEAL_MS - 1)).toBe("drawing");
    expect(cardPhase({ endTime, status: "completed", drawnAt }, "quick", end + 200 + DRAW_REVEAL_MS)).toBe("won");
    expect(cardPhase({ endTime, status: "cancelled", drawnAt }, "regular", end + 200 + DRAW_REVEAL_MS)).toBe("cancelled");
  });
});

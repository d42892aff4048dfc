import { describe, expect, it } from "vitest";
import { drawLoopDelay } from "./scheduler.server";

describe("drawLoopDelay", () => {
  it("sleeps until the next end, at most one interval", () => {
    expect(drawLoopDelay(new Date(10_120), 10_000, 10_000, 250)).toBe(120);
    expect(drawLoopDelay(new Date(10_900), 10_000, 10_000, 250)).toBe(250);
    expect(drawLoopDelay(undefined, 10_000, 10_000, 250)).toBe(250);
  });

  it("wakes at once for a raffle that ended while the pass ran", () => {
    expect(drawLoopDelay(new Date(10_050), 10_000, 10_300, 250)).toBe(0);
  });

  it("waits a full interval when what was due at the pass's start is held by another instance", () => {
    expect(drawLoopDelay(new Date(9_000), 10_000, 10_300, 250)).toBe(250);
    expect(drawLoopDelay(new Date(10_000), 10_000, 10_300, 250)).toBe(250);
  });
});

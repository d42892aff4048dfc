import { describe, expect, it } from "vitest";
import { wheelLabel, wheelState } from "./spin-wheel";

describe("the spin wheel's states", () => {
  it("is ready only when it can spin and nothing is pending", () => {
    expect(wheelState({ canSpin: true, spinning: false, pending: false })).toBe("ready");
    expect(wheelState({ canSpin: true, spinning: true, pending: false })).toBe("spinning");
    expect(wheelState({ canSpin: true, spinning: false, pending: true })).toBe("processing");
    expect(wheelState({ canSpin: false, spinning: false, pending: false })).toBe("waiting");
  });

  it("labels each state as the spec says, counting down HH:MM:SS while waiting", () => {
    expect(wheelLabel("ready", 0)).toBe("SPIN");
    expect(wheelLabel("spinning", 0)).toBe("SPINNING...");
    expect(wheelLabel("processing", 0)).toBe("PROCESSING...");
    expect(wheelLabel("waiting", 3725)).toBe("01:02:05");
    expect(wheelLabel("waiting", 0)).toBe("Available now!");
  });
});

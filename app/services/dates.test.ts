import { describe, expect, it } from "vitest";
import { longUtcDate, utcMinute } from "./dates";

describe("dates", () => {
  it("states a moment to the minute in UTC", () => {
    expect(utcMinute("2026-06-08T11:00:59.999Z")).toBe("2026-06-08 11:00 UTC");
  });

  it("states a day in prose, in UTC whatever the server's zone", () => {
    expect(longUtcDate("2026-11-22T00:30:00Z")).toBe("November 22, 2026");
    expect(longUtcDate(new Date("2026-01-01T23:59:59Z"))).toBe("January 1, 2026");
  });
});

import { describe, expect, it } from "vitest";
import { longUtcDate, parseIsoDay, utcMinute } from "./dates";

describe("dates", () => {
  it("states a moment to the minute in UTC", () => {
    expect(utcMinute("2026-06-08T11:00:59.999Z")).toBe("2026-06-08 11:00 UTC");
  });

  it("states a day in prose, in UTC whatever the server's zone", () => {
    expect(longUtcDate("2026-11-22T00:30:00Z")).toBe("November 22, 2026");
    expect(longUtcDate(new Date("2026-01-01T23:59:59Z"))).toBe("January 1, 2026");
  });

  it("reads a real calendar day as midnight UTC, and nothing else", () => {
    expect(parseIsoDay("1992-02-29")?.toISOString()).toBe("1992-02-29T00:00:00.000Z");
    expect(parseIsoDay("1900-01-01")?.toISOString()).toBe("1900-01-01T00:00:00.000Z");
    expect(parseIsoDay("9999-12-31")?.toISOString()).toBe("9999-12-31T00:00:00.000Z");
    for (const text of [
      "1990-02-30",
      "2023-02-29",
      "1990-13-01",
      "1990-00-10",
      "1990-04-31",
      "9999-99-99",
      "0000-01-01",
      "1899-12-31",
      "-000001-01-01",
      "+275760-09-13",
      "10000-01-01",
      "1990-1-1",
      "1990-01-01T00:00:00Z",
      " 1990-01-01",
      "01/02/1990",
      "",
    ]) {
      expect(parseIsoDay(text), text).toBeNull();
    }
  });
});

import { describe, expect, it } from "vitest";
import { periodStart, periodStarts } from "./revenue-periods";

describe("revenue periods", () => {
  it("start at the UTC day, the Monday of the week, the first of the month", () => {
    const at = new Date("2026-11-25T23:30:00Z"); // a Wednesday
    expect(periodStart("day", at).toISOString()).toBe("2026-11-25T00:00:00.000Z");
    expect(periodStart("week", at).toISOString()).toBe("2026-11-23T00:00:00.000Z");
    expect(periodStart("week", new Date("2026-11-29T12:00:00Z")).toISOString()).toBe("2026-11-23T00:00:00.000Z"); // a Sunday
    expect(periodStart("month", at).toISOString()).toBe("2026-11-01T00:00:00.000Z");
  });

  it("count back across a year's end, oldest first", () => {
    const months = periodStarts("month", 12, new Date("2026-03-10T00:00:00Z")).map((d) => d.toISOString().slice(0, 7));
    expect(months[0]).toBe("2025-04");
    expect(months.at(-1)).toBe("2026-03");
    expect(periodStarts("week", 12, new Date("2026-01-07T00:00:00Z"))[10]!.toISOString().slice(0, 10)).toBe("2025-12-29");
    expect(periodStarts("day", 30, new Date("2026-03-01T05:00:00Z"))[28]!.toISOString().slice(0, 10)).toBe("2026-02-28");
  });
});

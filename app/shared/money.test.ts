import { describe, expect, it } from "vitest";
import { coinsToDecimal, formatDecimalDollars, formatDollars, parseDollars } from "./money";

describe("money", () => {
  it("renders coins as dollars with two decimals", () => {
    expect(coinsToDecimal(5n)).toBe("0.05");
    expect(coinsToDecimal(2500n)).toBe("25.00");
    expect(coinsToDecimal(0n)).toBe("0.00");
    expect(coinsToDecimal(-7n)).toBe("-0.07");
    expect(coinsToDecimal(2n ** 62n)).toBe("46116860184273879.04");
  });

  it("formats dollars with thousands separators", () => {
    expect(formatDollars(123456n)).toBe("$1,234.56");
    expect(formatDollars(100000000n)).toBe("$1,000,000.00");
    expect(formatDollars(99n)).toBe("$0.99");
  });

  it("puts a true minus sign (U+2212) before the currency symbol of negative money", () => {
    expect(formatDollars(-31137n)).toBe("\u2212$311.37");
    expect(formatDollars(-123456789n)).toBe("\u2212$1,234,567.89");
    expect(formatDecimalDollars("-311.37")).toBe("\u2212$311.37");
    expect(formatDecimalDollars("46116860184273879.04")).toBe("$46,116,860,184,273,879.04");
    expect(formatDecimalDollars("0.00")).toBe("$0.00");
  });

  it("parses dollar amounts exactly and refuses anything else", () => {
    expect(parseDollars("10")).toBe(1000n);
    expect(parseDollars("10.5")).toBe(1050n);
    expect(parseDollars("0.01")).toBe(1n);
    for (const bad of ["", "-1", "1.234", "1e3", "NaN", "0x10", "1,000", " . "]) expect(parseDollars(bad)).toBeUndefined();
  });
});

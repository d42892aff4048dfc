import { describe, expect, it } from "vitest";
import { decrypt, encrypt } from "./crypto-box.server";

describe("the payout details box", () => {
  it("round-trips, never stores the plain text, and refuses tampering", () => {
    const sealed = encrypt("Routing: 011000015 | Account: 123456789");
    expect(sealed).not.toContain("123456789");
    expect(sealed).not.toBe(encrypt("Routing: 011000015 | Account: 123456789"));
    expect(decrypt(sealed)).toBe("Routing: 011000015 | Account: 123456789");
    const parts = sealed.split(".");
    parts[3] = parts[3]!.replace(/^./, (c) => (c === "A" ? "B" : "A"));
    expect(() => decrypt(parts.join("."))).toThrow();
  });
});

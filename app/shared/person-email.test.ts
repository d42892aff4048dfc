import { describe, expect, it } from "vitest";
import { normaliseEmail } from "./person-email";

describe("normaliseEmail (the person behind an address)", () => {
  it("folds case, spaces and a +tag", () => {
    expect(normaliseEmail("  Ann.Lee+raffles@Example.COM ")).toBe("ann.lee@example.com");
  });

  it("drops Gmail's dots and its other domain", () => {
    expect(normaliseEmail("a.n.n+x@googlemail.com")).toBe("ann@gmail.com");
  });

  it("keeps other addresses apart", () => {
    expect(normaliseEmail("ann@example.com")).not.toBe(normaliseEmail("anne@example.com"));
    expect(normaliseEmail("+ann@example.com")).toBe("+ann@example.com");
  });
});

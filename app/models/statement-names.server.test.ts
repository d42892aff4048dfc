import { describe, expect, it } from "vitest";
import { statementNames } from "./statement-names.server";

describe("statementNames", () => {
  it("names the same text alike and different texts apart", () => {
    const name = statementNames();
    const first = name({ sql: "SELECT 1" });
    expect(first).not.toBe("");
    expect(name({ sql: "SELECT 2" })).not.toBe(first);
    expect(name({ sql: "SELECT 1" })).toBe(first);
  });

  it("leaves texts past its limit unnamed, and keeps the names it gave", () => {
    const name = statementNames(2);
    const [a, b] = [name({ sql: "SELECT 1" }), name({ sql: "SELECT 2" })];
    expect(name({ sql: "SELECT 3" })).toBe("");
    expect([name({ sql: "SELECT 1" }), name({ sql: "SELECT 2" })]).toEqual([a, b]);
  });
});

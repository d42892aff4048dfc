import { describe, expect, it } from "vitest";
import { validateUsername } from "./username";

describe("validateUsername", () => {
  it.each([
    ["", "Username Required", "Please enter a username to continue."],
    ["   ", "Username Required", "Please enter a username to continue."],
    ["ab", "Username Too Short", "Username must be at least 3 characters long."],
    // Length is checked before characters: a short name with a bad character is "too short".
    ["a!", "Username Too Short", "Username must be at least 3 characters long."],
    ["a".repeat(21), "Username Too Long", "Username must be less than 20 characters."],
    ["bad name", "Invalid Username", "Username can only contain letters, numbers, and underscores."],
    ["émile", "Invalid Username", "Username can only contain letters, numbers, and underscores."],
  ])("refuses %j with the spec's message, in order", (input, title, description) => {
    expect(validateUsername(input)).toEqual({ ok: false, problem: { title, description } });
  });

  it.each(["abc", "Lucky_7", "a".repeat(20), "  padded  "])("accepts %j (trimmed)", (input) => {
    expect(validateUsername(input)).toEqual({ ok: true, username: input.trim() });
  });
});

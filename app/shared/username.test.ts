import { describe, expect, it } from "vitest";
import { usernameKey, validateUsername } from "./username";

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

  it.each([
    "admin",
    "Admin",
    "ADMlN",
    "AdmIn",
    "Adrnin",
    "support",
    "SUPP0RT",
    "root",
    "mod",
    "RaffleRush",
    "Real_Admin",
    "TheAdmin",
    "SupportTeam",
    "x_staff_y",
  ])("refuses %j: it is, or looks like, one of the site's own", (input) => {
    expect(validateUsername(input)).toEqual({ ok: false, problem: { title: "Username Reserved", description: "That username is reserved. Try another one!" } });
  });

  it.each(["Badminton", "modest", "Helper", "rooted"])("accepts %j, which only holds a reserved word inside another", (input) => {
    expect(validateUsername(input)).toEqual({ ok: true, username: input });
  });
});

describe("usernameKey", () => {
  it("gives names that look alike one key, whatever their case", () => {
    const key = usernameKey("DemoPlayer");
    for (const lookAlike of ["DemoPIayer", "Dem0Player", "DernoPlayer", "demop1ayer", "DEMOPLAYER", "dEm0pIaYeR"]) expect(usernameKey(lookAlike)).toBe(key);
    expect(usernameKey("DemoPayer")).not.toBe(key);
    expect(usernameKey("Lucky_7")).not.toBe(usernameKey("Lucky_1"));
  });
});

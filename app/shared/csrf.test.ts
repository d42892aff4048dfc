import { describe, expect, it } from "vitest";
import { isCrossSite } from "./csrf";

const post = { method: "POST", path: "/api/raffles/x/enter", host: "raffle.example" };

describe("isCrossSite", () => {
  it("lets reads through", () => {
    expect(isCrossSite({ ...post, method: "GET" })).toBe(false);
  });

  it("accepts a post from this site by Origin, or by Referer when Origin is absent", () => {
    expect(isCrossSite({ ...post, origin: "https://raffle.example" })).toBe(false);
    expect(isCrossSite({ ...post, referer: "https://raffle.example/quick" })).toBe(false);
  });

  it.each([
    { origin: "https://evil.example" },
    { origin: "null" },
    { referer: "https://evil.example/raffle.example" },
    { origin: "https://raffle.example.evil.example" },
    {},
  ])("refuses %o", (headers) => {
    expect(isCrossSite({ ...post, ...headers })).toBe(true);
  });

  it("leaves the signed payment webhook to its signature check", () => {
    expect(isCrossSite({ ...post, path: "/api/stripe/webhook" })).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { wantsJson } from "./respond.server";

const post = (headers: Record<string, string>) => new Request("http://localhost/api/daily-spin", { method: "POST", headers });

describe("who gets JSON and who gets a redirect", () => {
  it("redirects a browser's plain form post, which asks for HTML", () => {
    expect(wantsJson(post({ Accept: "text/html,application/xhtml+xml,*/*;q=0.8", "Content-Type": "application/x-www-form-urlencoded" }))).toBe(false);
  });

  it("answers JSON to fetchers, whether they send a form or JSON", () => {
    expect(wantsJson(post({ Accept: "application/json", "Content-Type": "multipart/form-data; boundary=x" }))).toBe(true);
    expect(wantsJson(post({ Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" }))).toBe(true);
    expect(wantsJson(post({ "Content-Type": "application/json" }))).toBe(true);
  });

  it("answers JSON to a bodiless POST that asks for nothing in particular (the spec's client)", () => {
    expect(wantsJson(post({}))).toBe(true);
    expect(wantsJson(post({ Accept: "*/*" }))).toBe(true);
  });
});

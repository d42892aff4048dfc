import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./safe-redirect";

describe("safeRedirectPath", () => {
  it.each(["/", "/quick", "/vip?tier=gold", "/fair/abc#proof"])("keeps the same-site path %s", (path) => {
    expect(safeRedirectPath(path)).toBe(path);
  });

  it.each([
    ["/raffles/€", "/raffles/%E2%82%AC"],
    ["/?q=café", "/?q=caf%C3%A9"],
    ["/🎟️", "/%F0%9F%8E%9F%EF%B8%8F"],
    ["/already%20encoded", "/already%20encoded"],
  ])("percent-encodes what a Location header cannot carry: %s", (path, sent) => {
    expect(safeRedirectPath(path)).toBe(sent);
  });

  it.each(["https://evil.example/", "//evil.example", "/\\evil.example", "/\t/evil.example", "javascript:alert(1)", "quick", "/\ud800", "", null, undefined])(
    "refuses %s",
    (path) => {
      expect(safeRedirectPath(path, "/home")).toBe("/home");
    },
  );
});

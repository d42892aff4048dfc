import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./safe-redirect";

describe("safeRedirectPath", () => {
  it.each(["/", "/quick", "/vip?tier=gold", "/fair/abc#proof"])("keeps the same-site path %s", (path) => {
    expect(safeRedirectPath(path)).toBe(path);
  });

  it.each(["https://evil.example/", "//evil.example", "/\\evil.example", "/\t/evil.example", "javascript:alert(1)", "quick", "", null, undefined])(
    "refuses %s",
    (path) => {
      expect(safeRedirectPath(path, "/home")).toBe("/home");
    },
  );
});

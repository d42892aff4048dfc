import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/** Files allowed a raw grey, and why: the passkey button's own dark look (not a token pair). */
const ALLOWED = new Set(["app/components/passkey-buttons.tsx"]);

/**
 * Issue 33: pages name the colour tokens (docs/design.md), which both themes redefine, not
 * Tailwind's slate and gray pairs (`border-slate-200 dark:border-slate-800`) that drift apart.
 */
describe("colour tokens in pages and components", () => {
  it("leaves no slate or gray class in app/routes or app/components", () => {
    const files = ["app/routes", "app/components"].flatMap((dir) =>
      readdirSync(dir)
        .filter((name) => name.endsWith(".tsx"))
        .map((name) => `${dir}/${name}`),
    );
    const raw = files.filter((file) => !ALLOWED.has(file)).filter((file) => /\b[\w:-]*-(slate|gray)-\d{2,3}\b/.test(readFileSync(file, "utf8")));
    expect(raw).toEqual([]);
  });
});

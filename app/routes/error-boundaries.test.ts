import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * Every page has an ErrorBoundary of its own (issue 22): what went wrong in that page's terms
 * and the way back. Resource routes (no default export: JSON, CSV, files) need none.
 */
const routesDir = new URL(".", import.meta.url);
const pages = readdirSync(routesDir)
  .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
  .map((file) => ({ file, source: readFileSync(new URL(file, routesDir), "utf8") }))
  .filter(({ source }) => /^export default /m.test(source));

describe("page routes", () => {
  it("are found (the test reads the route files)", () => {
    expect(pages.map((p) => p.file)).toEqual(expect.arrayContaining(["_index.tsx", "fair.$id.tsx", "withdraw.tsx"]));
  });

  it.each(pages.map((p) => [p.file, p.source]))("%s exports an ErrorBoundary", (_file, source) => {
    expect(source).toMatch(/^export (function ErrorBoundary\(|const ErrorBoundary\b|\{[^}]*\bErrorBoundary\b[^}]*\})/m);
  });
});

import path from "node:path";
import { expect } from "@playwright/test";
import { playerTest } from "../layout-checks";
import { assetWeight, HOME_JS_BUDGET_BYTES, PAGE_JS_BUDGET_BYTES, PLAYER_PAGES } from "../../support/page-weight";

/**
 * The signed-in home page's JavaScript stays within its budget (docs/benchmarks.md, figure 4),
 * measured as the bench measures it, from the build this suite serves. A shared component that
 * starts importing a large library (conform and zod through a field class) fails here, not
 * only in the next bench.
 */
playerTest("the signed-in home page loads at most 150 kB of JavaScript (gzip)", async ({ page }) => {
  const response = await page.request.get("/");
  expect(response.status()).toBe(200);
  const weight = assetWeight(await response.text(), path.resolve("build"));
  expect(weight.files).toBeGreaterThan(1);
  expect(weight.js, `${(weight.js / 1000).toFixed(1)} kB of JavaScript`).toBeLessThanOrEqual(HOME_JS_BUDGET_BYTES);
});

for (const pagePath of PLAYER_PAGES.slice(1)) {
  playerTest(`${pagePath} loads at most ${PAGE_JS_BUDGET_BYTES / 1000} kB of JavaScript (gzip)`, async ({ page }) => {
    const response = await page.request.get(pagePath);
    expect(response.status()).toBe(200);
    const weight = assetWeight(await response.text(), path.resolve("build"));
    expect(weight.js, `${(weight.js / 1000).toFixed(1)} kB of JavaScript`).toBeLessThanOrEqual(PAGE_JS_BUDGET_BYTES);
  });
}

import path from "node:path";
import { expect } from "@playwright/test";
import { playerTest } from "../layout-checks";
import { assetWeight, FORMLESS_PAGE_JS_BUDGET_BYTES, PAGE_JS_BUDGET_BYTES, PAGES_WITH_FORMS, PLAYER_PAGES } from "../../support/page-weight";

/**
 * Each page a player loads stays within its JavaScript budget (docs/benchmarks.md, figure 4),
 * measured as the bench measures it, from the build this suite serves. A shared component that
 * starts importing a large library (conform and zod through a field class) fails here, not
 * only in the next bench.
 */
for (const pagePath of PLAYER_PAGES) {
  const budget = PAGES_WITH_FORMS.includes(pagePath) ? PAGE_JS_BUDGET_BYTES : FORMLESS_PAGE_JS_BUDGET_BYTES;
  playerTest(`${pagePath} loads at most ${budget / 1000} kB of JavaScript (gzip)`, async ({ page }) => {
    const response = await page.request.get(pagePath);
    expect(response.status()).toBe(200);
    const weight = assetWeight(await response.text(), path.resolve("build"));
    expect(weight.files).toBeGreaterThan(1);
    expect(weight.js, `${(weight.js / 1000).toFixed(1)} kB of JavaScript`).toBeLessThanOrEqual(budget);
  });
}

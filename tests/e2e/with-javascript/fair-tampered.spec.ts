import { expect, test } from "@playwright/test";
import { drawnEarly } from "../fair-support";

/** The browser's check of a draw (issue 20, defect 7) catches a record changed on its way: here its seed. */
let raffleId: string;
test.beforeAll(async ({ browser, baseURL }) => {
  test.setTimeout(60_000);
  raffleId = await drawnEarly(browser, baseURL!);
});

test("a draw whose published record was changed does not verify", async ({ page }) => {
  await page.route(`**/api/fair/${raffleId}`, async (route) => {
    const response = await route.fetch();
    const draw = (await response.json()) as { seed: string };
    // Another seed: one bit changed.
    const last = parseInt(draw.seed.slice(-1), 16) ^ 1;
    await route.fulfill({ response, json: { ...draw, seed: draw.seed.slice(0, -1) + last.toString(16) } });
  });
  await page.goto(`/fair/${raffleId}`);
  const result = page.getByTestId("verification-result");
  await expect(result).toContainText("This draw does not verify");
  await expect(result).toContainText("✗ SHA-256(seed) equals the seed hash published at the start");
});

import { expect, test } from "@playwright/test";
import { signUpWithUsername } from "./support";

/**
 * Issue 33: /quick opens with a live round's entry button in the first screen, on a laptop
 * and on a phone (above its bottom bar), with or without JavaScript; the rounds over time
 * are tests/e2e/with-javascript/quick-layout.spec.ts's.
 */
for (const screen of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`a live round's entry button is in the first screen at ${screen.width}×${screen.height}`, async ({ page }) => {
    await signUpWithUsername(page);
    await page.setViewportSize(screen);
    await page.goto("/quick");
    // A slot's entry button: "Enter $…", or "Drawing Winner..." if the page opened in the second every round closes.
    const enter = page.locator('[id^="price-"] [data-testid="raffle-card"] form button').first();
    await expect(enter).toBeVisible();
    const box = (await enter.boundingBox())!;
    const bar = page.getByRole("navigation", { name: "Mobile" });
    const floor = (await bar.isVisible()) ? (await bar.boundingBox())!.y : screen.height;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(floor);
  });
}

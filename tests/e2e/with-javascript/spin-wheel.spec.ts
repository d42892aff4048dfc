import { expect, test } from "@playwright/test";
import { keepToasts, signUpWithUsername } from "../support";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

/**
 * After a spin, SPIN must not come back while the page's data is still being reloaded
 * (issue 20, defect 6): the reload is held here until the wheel has been checked. The spin
 * goes through a fetcher that follows the action's redirect (ADR 040), so the wheel stays
 * busy until the reloaded data says when the next spin is due, and the page never reloads.
 */
test("the wheel waits for the next spin as soon as the spin is done, with a labelled countdown", async ({ page }) => {
  await signUpWithUsername(page);
  await page.evaluate(() => ((window as unknown as { stillThisPage: boolean }).stillThisPage = true));
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  // Remix reloads loader data from *.data URLs (single fetch); the spin itself (a POST) goes through.
  await page.route(/\.data(\?|$)/, async (route) => {
    if (route.request().method() === "GET") await held;
    await route.continue().catch(() => {});
  });
  const spin = page.getByTestId("spin-button");
  await spin.click();
  await expect(spin).toHaveText("PROCESSING...");
  await expect(spin).toBeDisabled();
  release();
  await expect(page.getByTestId("toast")).toContainText(/You won (5|10|25|50) coins!/);
  await expect(spin).toHaveText(/^Next spin in (23:59:\d\d|24:00:00)$/);
  await expect(spin).toBeDisabled();
  expect(await page.evaluate(() => (window as unknown as { stillThisPage?: boolean }).stillThisPage)).toBe(true);
});

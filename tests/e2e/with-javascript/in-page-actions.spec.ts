import { expect, test } from "@playwright/test";
import { keepToasts, signUpWithUsername } from "../support";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

type Marked = { stillThisPage?: boolean };

/**
 * The pages' forms go through fetchers (ADR 040): the same action as without JavaScript,
 * answered with a redirect and a toast that the fetcher follows without loading the page.
 */
test("an entry toasts and updates the balance without a page load, and Back still leaves the page", async ({ page }) => {
  await signUpWithUsername(page);
  await page.goto("/rules");
  await page.goto("/");
  await page.evaluate(() => ((window as Marked).stillThisPage = true));
  const card = page.locator('[data-testid="raffle-card"]', { hasText: "Enter $0.05" }).first();
  await card.getByRole("button", { name: "Enter $0.05" }).click();
  await expect(page.getByTestId("toast")).toContainText("Successfully entered micro raffle!");
  await expect(page.getByTestId("coin-balance")).toHaveText("995 coins");
  expect(await page.evaluate(() => (window as Marked).stillThisPage)).toBe(true);
  // The redirect replaced the history entry: Back goes to the page before, not to / again.
  await page.goBack();
  await expect(page).toHaveURL(/\/rules$/);
});

test("a player signed out meanwhile gets the spec's toast and the sign-in page", async ({ page, context }) => {
  await signUpWithUsername(page);
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await context.clearCookies();
  const card = page.locator('[data-testid="raffle-card"]', { hasText: "Enter $0.05" }).first();
  await card.getByRole("button", { name: "Enter $0.05" }).click();
  await expect(page).toHaveURL(/\/api\/login\?returnTo=%2F$/);
  await expect(page.getByTestId("toast")).toContainText("Unauthorized");
  await expect(page.getByTestId("toast")).toContainText("You are logged out. Logging in again...");
});

import { expect, test } from "@playwright/test";
import { excludeSelf, signUpWithUsername } from "./support";

// The phone's bottom bar shows in every project at a phone's width (it is hidden from sm up).
test.use({ viewport: { width: 390, height: 844 } });

/**
 * Issue 33, item 5 (PRODUCT.md: during a break no page invites play): home showed live
 * raffle cards, pots, countdowns and "View Raffles" / "Quick Raffles" during a break. It
 * shows the balance, history, withdrawal and help, and no link to raffles.
 */
test("during a break, home invites no play", async ({ page }) => {
  await signUpWithUsername(page);
  await excludeSelf(page, "24h");

  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Your account", level: 1 })).toBeVisible();
  const main = page.getByRole("main");
  for (const name of ["History", "Withdraw"]) await expect(main.getByRole("link", { name, exact: true })).toBeVisible();
  await expect(page.getByTestId("raffle-card")).toHaveCount(0);
  await expect(page.getByTestId("countdown")).toHaveCount(0);
  await expect(page.getByText("Total Pots Live")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: /Biggest Pots|Recent Winners|Leaderboard/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: /View Raffles|Quick Raffles|^Raffles$|^Winners$/ })).toHaveCount(0);
  await expect(page.locator('a[href^="/#"], a[href^="#"], a[href="/quick"]')).toHaveCount(0);
});

import { expect, test } from "@playwright/test";
import { excludeSelf, signUpWithUsername } from "./support";

/**
 * Issue 33, item 5 (PRODUCT.md: during a break no page invites play): home was made calm,
 * but /quick (and /quick-raffles) still showed live rounds, pots, countdowns and entry
 * buttons. It shows the same calm page as home: the account, and nothing to play.
 */
test("during a break, the quick raffles page invites no play", async ({ page }) => {
  await signUpWithUsername(page);
  await excludeSelf(page, "24h");

  for (const path of ["/quick", "/quick-raffles"]) {
    await page.goto(path);
    await expect(page.getByTestId("raffle-card")).toHaveCount(0);
    await expect(page.getByTestId("countdown")).toHaveCount(0);
    await expect(page.getByRole("button", { name: /Enter|Insufficient Coins/ })).toHaveCount(0);
    await expect(page.getByText(/\bPot\b|Quick Winners|You could win/)).toHaveCount(0);
    await expect(page.locator('a[href^="/#"], a[href^="#"], a[href="/quick"]')).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Your account", level: 1 })).toBeVisible();
    await expect(page.getByTestId("paused-notice")).toBeVisible();
    const main = page.getByRole("main");
    for (const name of ["History", "Withdraw"]) await expect(main.getByRole("link", { name, exact: true })).toBeVisible();
  }
});

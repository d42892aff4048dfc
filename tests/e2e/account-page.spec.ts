import { expect, test } from "@playwright/test";
import { signUpWithUsername } from "./support";

// The phone's bottom bar, in every project: a phone's width (it is hidden from sm up).
test.use({ viewport: { width: 390, height: 844 } });

/**
 * Issue 33, item 5: the bottom bar's "Profile" signed the player out at a tap. It opens their
 * account (balance and its split, history, settings, Logout inside); and the cash/bonus
 * split, a hover tooltip before, opens on a tap. With and without JavaScript.
 */
test("Profile opens the player's account, with Logout inside it", async ({ page }) => {
  await signUpWithUsername(page);
  await page.getByRole("navigation", { name: "Mobile" }).getByRole("link", { name: "Profile" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
  await expect(page.getByTestId("account-balance")).toHaveText("1,000 coins");
  const main = page.getByRole("main");
  await expect(main.getByText("Bonus (play only)")).toBeVisible();
  for (const name of ["History", "Withdraw", "Settings"]) await expect(main.getByRole("link", { name, exact: true })).toBeVisible();
  // Still signed in: the tap signed nobody out.
  await expect(page.getByTestId("coin-balance")).toHaveText("1,000 coins");

  await main.getByRole("button", { name: "Logout" }).click();
  await expect(page.getByTestId("coin-balance")).toHaveCount(0);
});

test("a tap on the balance shows its cash/bonus split", async ({ page }) => {
  await signUpWithUsername(page);
  const split = page.getByTestId("coin-split");
  await expect(split).toBeHidden();
  await page.getByTestId("coin-balance").click();
  await expect(split).toBeVisible();
  await expect(split).toContainText("Cash (withdrawable)");
  await expect(split).toContainText("Bonus (play only)");
});

import { expect, test } from "@playwright/test";
import { keepToasts, signUpWithUsername } from "./support";
import { scaled } from "../support/timeouts";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

/**
 * Know your player (issue 35; ADR 080), in every project (desktop, mobile, JavaScript off): a
 * GB player is sent to verify before the first deposit, verifies with the labelled demo
 * provider, then deposits and plays.
 */
test("a GB player verifies with the demo provider before the first deposit, then deposits and plays", async ({ page }) => {
  test.setTimeout(scaled(90_000));
  await signUpWithUsername(page, "GB");
  const balance = page.getByTestId("coin-balance");
  await expect(balance).toHaveText("1,000 coins");

  await page.goto("/checkout?package=package_2");
  await expect(page).toHaveURL(/\/verify$/);
  await expect(page.getByTestId("identity-why")).toContainText("The law in Great Britain requires us to check your age and identity");
  await expect(page.getByRole("heading", { name: "What happens to your documents" })).toBeVisible();

  await page.getByTestId("start-verification").click();
  await expect(page).toHaveURL(/\/verify\/demo\/demo_vs_[0-9a-f]{24}$/);
  await expect(page.getByTestId("demo-identity-label")).toContainText("DEMO identity check");
  await page.getByLabel("Verified", { exact: true }).check();
  await page.getByTestId("demo-identity-submit").click();
  await expect(page.getByTestId("identity-verified")).toContainText("Your identity is verified");

  await page.goto("/checkout?package=package_2");
  await expect(page.getByTestId("order-total")).toHaveText("$4.99");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page.getByTestId("toast")).toContainText("Payment Successful!");
  await expect(balance).toHaveText("1,600 coins");

  const card = page.locator('[data-testid="raffle-card"]', { hasText: "Enter $0.05" }).first();
  await card.getByRole("button", { name: "Enter $0.05" }).click();
  await expect(page.getByTestId("toast")).toContainText("Successfully entered micro raffle!");
  await expect(balance).toHaveText("1,595 coins");
});

import { expect, test, type Page } from "@playwright/test";
import { keepToasts, signUpWithUsername } from "./support";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

/** Demo mode payments, in every project (JavaScript on and off). */
async function pay(page: Page, card: string) {
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /^Pay \$/ }).click();
}

test("buying coins: package_2 adds 600 coins, a declined card adds nothing", async ({ page }) => {
  await signUpWithUsername(page);
  const balance = page.getByTestId("coin-balance");
  await expect(balance).toHaveText("1,000 coins");

  await page.locator("#coin-store li", { hasText: "600" }).getByRole("link", { name: "Buy Now" }).click();
  await expect(page).toHaveURL(/\/checkout\?package=package_2$/);
  await expect(page.getByTestId("order-total")).toHaveText("$4.99");
  await expect(page.getByText("Demo mode — no real money")).toBeVisible();
  await pay(page, "4000 0000 0000 0002");
  await expect(page.getByTestId("toast")).toContainText("Payment Failed");
  await expect(page.getByTestId("toast")).toContainText("Your card was declined.");
  await expect(balance).toHaveText("1,000 coins");

  await pay(page, "4242 4242 4242 4242");
  await expect(page.getByTestId("toast")).toContainText("Payment Successful!");
  await expect(page.getByTestId("toast")).toContainText("600 coins have been added to your account!");
  await expect(balance).toHaveText("1,600 coins");
});

test("a missing or unknown package goes back home", async ({ page }) => {
  await signUpWithUsername(page);
  await page.goto("/checkout?package=package_9");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("toast")).toContainText("Failed to initialize payment");
});

test("buying VIP gold activates it for 30 days", async ({ page }) => {
  await signUpWithUsername(page);
  await page.goto("/vip");
  await page
    .locator("li", { has: page.getByRole("heading", { name: "gold" }) })
    .getByRole("link", { name: "Subscribe" })
    .click();
  await expect(page.getByTestId("order-total")).toHaveText("$39.99");
  await pay(page, "4242 4242 4242 4242");
  await expect(page.getByTestId("toast")).toContainText("Welcome to GOLD tier!");
  await expect(page.getByTestId("toast")).toContainText("Your benefits are now active.");
  const status = page.getByTestId("vip-status");
  await expect(status).toContainText("GOLD");
  const expected = new Date(Date.now() + 30 * 86_400_000).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });
  await expect(status).toContainText(`active until ${expected}`);
  // Gold's daily bonus is now open to them.
  await page.getByRole("button", { name: "Claim Daily Bonus" }).click();
  await expect(page.getByTestId("toast")).toContainText("You received 30 bonus coins!");
});

test("the checkout writes coin amounts with a thousands separator (issue 33)", async ({ page }) => {
  await signUpWithUsername(page);
  await page.goto("/checkout?package=package_4");
  await expect(page.getByTestId("order-item")).toHaveText("5,000 coins");
  await expect(page.getByTestId("order-total")).toHaveText("$24.99");
});

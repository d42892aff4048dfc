import { expect, test } from "@playwright/test";
import { signUpWithUsername } from "./support";

/** Cashing out, with and without JavaScript. */
test("request a withdrawal: refused below $10, then held and listed as pending", async ({ page }) => {
  await signUpWithUsername(page);
  await page.goto("/withdraw");
  const javascript = await page.evaluate(() => document.documentElement.dataset.hydrated === "true").catch(() => false);
  await page.getByLabel("Amount ($)").fill("5");
  await page.getByLabel("Method").selectOption("venmo");
  await page.getByLabel("Venmo username").fill("lucky-lou");
  await page.getByRole("button", { name: "Request Withdrawal" }).click();
  await expect(page.getByTestId("toast")).toContainText("Minimum withdrawal amount is $10");

  await page.getByLabel("Amount ($)").fill("10");
  if (!javascript) {
    // Without JavaScript the page came back fresh from the server: fill the method again.
    await page.getByLabel("Method").selectOption("venmo");
    await page.getByLabel("Venmo username").fill("lucky-lou");
  }
  await page.getByRole("button", { name: "Request Withdrawal" }).click();
  await expect(page.getByTestId("toast")).toContainText("Withdrawal Requested");
  await expect(page.getByTestId("coin-balance")).toHaveText("0 coins");
  await expect(page.getByTestId("withdrawal").first()).toContainText("$10.00");
  // Pending, unless an admin's bulk approval (another test) got to it first.
  await expect(page.getByTestId("withdrawal").first()).toContainText(/pending|completed/);
  await expect(page.getByTestId("withdrawal").first()).toContainText("Venmo ••••ou");
});

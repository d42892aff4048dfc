import { expect, test } from "@playwright/test";
import { signUpWithUsername } from "../support";

/** Demo mode pays with the demo provider: Stripe.js is never fetched, and nothing fails in the console (issue 20). */
test("the checkout page in demo mode loads no Stripe.js and logs no error", async ({ page }) => {
  const stripeRequests: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => {
    if (/stripe\.com/.test(request.url())) stripeRequests.push(request.url());
  });
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await signUpWithUsername(page);
  await page.goto("/checkout?package=package_2");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await expect(page.getByLabel("Card number")).toBeVisible();
  await page.goto("/vip/checkout?tier=gold");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  expect(stripeRequests).toEqual([]);
  expect(errors).toEqual([]);
});

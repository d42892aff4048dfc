import { expect, test, type Page } from "@playwright/test";
import { signUpWithUsername } from "../support";

/**
 * Demo mode pays with the demo provider: Stripe.js is never fetched, and nothing fails in the
 * console (issue 20). Each checkout page opens in a tab of its own and is watched until the
 * checks: a page left while its live updates were loading logs Remix's AbortError for the
 * load it gave up, which says nothing about the page under test (it failed this test once).
 */
test("the checkout page in demo mode loads no Stripe.js and logs no error", async ({ page, context }) => {
  const stripeRequests: string[] = [];
  const errors: string[] = [];
  const watch = (tab: Page) => {
    tab.on("request", (request) => {
      if (/stripe\.com/.test(request.url())) stripeRequests.push(request.url());
    });
    tab.on("console", (message) => {
      if (message.type() === "error") errors.push(`${tab.url()}: ${message.text()}`);
    });
  };
  await signUpWithUsername(page);
  for (const target of ["/checkout?package=package_2", "/vip/checkout?tier=gold"]) {
    const tab = await context.newPage();
    watch(tab);
    await tab.goto(target);
    await expect(tab.locator("html")).toHaveAttribute("data-hydrated", "true");
    await expect(tab.getByLabel("Card number")).toBeVisible();
  }
  expect(stripeRequests).toEqual([]);
  expect(errors).toEqual([]);
});

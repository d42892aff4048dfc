import { expect, test } from "@playwright/test";
import { adminRequest, gotoListening, hydratedIfJavaScript, keepToasts, signUpWithUsername, verifyEmailOf } from "./support";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

/** Cashing out, with and without JavaScript: only cash (money paid in or won) goes out. */
test("request a withdrawal: welcome coins stay, refused below $10 and above the cash, then held and listed as pending", async ({ page, baseURL }) => {
  await verifyEmailOf((await signUpWithUsername(page)).email);
  await page.goto("/withdraw");
  // The 1,000 demo welcome coins are bonus coins: nothing to withdraw.
  await expect(page.getByTestId("withdrawable")).toHaveText("$0.00");
  await expect(page.getByText("your 1,000 bonus coins are for play only and cannot be withdrawn")).toBeVisible();

  // package_4 with the demo card: $24.99 paid is $24.99 of cash; the other 2,501 coins are bonus.
  const bought = await page.request.post("/checkout?package=package_4", {
    form: { intent: "demo-pay", cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(bought.status()).toBe(302);
  await page.goto("/withdraw");
  await expect(page.getByTestId("withdrawable")).toHaveText("$24.99");
  // Money goes back the way it came: the page says how much goes back to the card first.
  await expect(page.getByTestId("withdraw-split-rule")).toContainText("the first $24.99 of a withdrawal is refunded to the cards you paid with");
  // ...and the bonus coins that such a refund takes back with the purchase, before the request.
  await expect(page.getByTestId("withdraw-bonus-rule")).toContainText("up to 2,501 bonus coins if all $24.99 goes back to your cards");
  await expect(page.getByTestId("coin-balance")).toHaveText("6,000 coins");
  const javascript = await hydratedIfJavaScript(page);

  const request = async (amount: string, fillMethod: boolean) => {
    await page.getByLabel("Amount ($)").fill(amount);
    if (fillMethod) {
      await page.getByLabel("Method").selectOption("venmo");
      await page.getByLabel("Venmo username").fill("lucky-lou");
    }
    await page.getByRole("button", { name: "Request Withdrawal" }).click();
  };
  // A refusal is the spec's toast with JavaScript; without it the page comes back with the reason beside the field.
  const refused = (text: string) => expect(javascript ? page.getByTestId("toast") : page.getByTestId("withdraw-error")).toContainText(text);
  await request("5", true);
  await refused("Minimum withdrawal amount is $10");
  await request("25", false);
  await refused("Only cash can be withdrawn: you can withdraw up to $24.99.");
  // Without JavaScript the form states the split it cannot compute: a method only past $24.99.
  if (!javascript) await expect(page.getByTestId("method-need")).toHaveText("(needed only for the part above $24.99, which goes back to your cards)");
  await page.getByLabel("Amount ($)").fill("10");
  if (javascript) {
    await expect(page.getByTestId("withdraw-split")).toContainText("$10.00 back to your cards");
    await expect(page.getByTestId("withdraw-split")).not.toContainText(" to the method you choose");
    await expect(page.getByTestId("method-need")).toHaveText("(not needed: all of it goes back to your cards)");
    await expect(page.getByTestId("withdraw-bonus-back")).toHaveText("The refund takes back 1,000 bonus coins that came with those purchases.");
  }
  // All of it goes back to the card: no method is asked for, with or without JavaScript
  // (the page's form still holds the Venmo chosen above, kept through the refusals: cleared).
  await page.getByLabel("Method").selectOption("");
  await request("10", false);
  await expect(page.getByTestId("toast")).toContainText("Withdrawal Requested");
  await expect(page.getByTestId("withdrawal-leg").first()).toContainText(/\$10\.00 · Back to the card you paid with on .* · (pending|completed)/);
  await expect(page.getByTestId("coin-balance")).toHaveText("5,000 coins");
  await expect(page.getByTestId("withdrawal").first()).toContainText("$10.00");
  // Pending, unless an admin's bulk approval (another test) got to it first.
  await expect(page.getByTestId("withdrawal").first()).toContainText(/pending|completed/);
  // All of it goes back to the card: named so, and no method's leg.
  await expect(page.getByTestId("withdrawal").first()).toContainText("Back to your cards");
  await expect(page.getByTestId("withdrawal-leg")).toHaveCount(1);
});

/** A payout that fails reaches the player with its reason: on the withdraw page, and as a toast (on the open page with JavaScript, else on their next page). */
test("a refused payout's reason reaches the player", async ({ page, baseURL, playwright }) => {
  await verifyEmailOf((await signUpWithUsername(page)).email);
  // $74.97 of cash: a $60 request stays out of the back office's bulk approval (up to $50).
  for (let i = 0; i < 3; i++) {
    const bought = await page.request.post("/checkout?package=package_4", {
      form: { intent: "demo-pay", cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" },
      headers: { Origin: baseURL! },
      maxRedirects: 0,
    });
    expect(bought.status()).toBe(302);
  }
  const requested = await page.request.post("/api/withdraw", {
    data: { amount: 60, method: "venmo", accountInfo: "lucky-lou" },
    headers: { Origin: baseURL!, Accept: "application/json" },
  });
  expect(requested.status()).toBe(200);
  const { id } = (await requested.json()) as { id: string };
  // This page takes the purchases' own toast (one toast at a time), and listens for news.
  const javascript = await gotoListening(page, "/withdraw");

  const admin = await adminRequest(playwright, baseURL!);
  const rejected = await admin.post(`/api/admin/payouts/${id}/reject`, {
    data: { reason: "Name does not match the account" },
    headers: { Accept: "application/json" },
  });
  expect(rejected.status()).toBe(200);
  await admin.dispose();

  // With JavaScript the news comes to the page that is open (ADR 028); without it, the next page shows it.
  if (!javascript) await page.goto("/");
  await expect(page.getByTestId("toast")).toContainText("Withdrawal Failed");
  await expect(page.getByTestId("toast")).toContainText("$60.00 is back in your balance. Name does not match the account");
  await page.goto("/withdraw");
  await expect(page.getByTestId("withdrawal-reason").first()).toHaveText("Why: Name does not match the account");
  await expect(page.getByTestId("withdrawable")).toHaveText("$74.97");
});

import { expect, test, type Browser } from "@playwright/test";
import { signInRequest, unique } from "../support";

/**
 * The back office end to end, once with JavaScript and once without (one test, so the
 * two runs never decide each other's payouts): pass the gate, approve one payout, reject
 * one, bulk-approve under $50, complete a raffle early, and find each in the audit log.
 */
async function playerWithPayout(browser: Browser, baseURL: string, dollars: number) {
  const context = await browser.newContext({ baseURL });
  const email = `payout-${unique()}@example.com`;
  const headers = { Origin: baseURL };
  await context.request.post("/api/login", {
    form: { intent: "signup", email, password: "correct horse battery staple", dateOfBirth: "1990-01-01", country: "GB", acceptTerms: "on" },
    headers,
    maxRedirects: 0,
  });
  // 1,000 demo coins (bonus, never withdrawn), plus package_4 bought three times with the
  // demo test card: $74.97 of withdrawable cash.
  for (let i = 0; i < 3; i++) {
    await context.request.post("/checkout?package=package_4", {
      form: { intent: "demo-pay", cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" },
      headers,
      maxRedirects: 0,
    });
  }
  const response = await context.request.post("/api/withdraw", {
    data: { amount: dollars, method: "venmo", accountInfo: `v-${unique()}` },
    headers: { ...headers, Accept: "application/json" },
  });
  expect(response.status()).toBe(200);
  await context.close();
  return email;
}

for (const javaScriptEnabled of [true, false]) {
  test(`the back office ${javaScriptEnabled ? "with" : "without"} JavaScript`, async ({ browser, baseURL }) => {
    test.setTimeout(90_000);
    const approveMe = await playerWithPayout(browser, baseURL!, 55);
    const rejectMe = await playerWithPayout(browser, baseURL!, 56);
    const bulkMe = await playerWithPayout(browser, baseURL!, 12);

    const context = await browser.newContext({ baseURL, javaScriptEnabled });
    const page = await context.newPage();
    await signInRequest(page.request, baseURL!, "admin@demo.test", "demo-admin-pass");
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin-access$/);
    await page.getByLabel("Security Key").fill("demo-admin-access-key");
    await page.getByRole("button", { name: "Access Dashboard" }).click();
    await expect(page.getByRole("heading", { name: "Admin dashboard" })).toBeVisible();

    await page.getByTestId("payout").filter({ hasText: approveMe }).getByRole("button", { name: "Approve" }).click();
    await expect(page.getByTestId("toast")).toContainText("Payout updated successfully");
    await page.getByTestId("payout").filter({ hasText: rejectMe }).getByRole("button", { name: "Reject" }).click();
    await expect(page.getByTestId("toast")).toContainText("Payout updated successfully");
    await expect(page.getByTestId("payout").filter({ hasText: approveMe })).toHaveCount(0);
    await expect(page.getByTestId("payout").filter({ hasText: rejectMe })).toHaveCount(0);

    await page.getByRole("button", { name: "Auto-approve up to $50" }).click();
    await expect(page.getByTestId("toast")).toContainText("Payout updated successfully");
    await expect(page.getByTestId("payout").filter({ hasText: bulkMe })).toHaveCount(0);

    await page.getByRole("link", { name: "raffles" }).click();
    // A quick round: completing it early never takes a long raffle away from other tests.
    const active = page.getByTestId("admin-raffle").filter({ hasText: "quick" }).filter({ has: page.getByRole("button", { name: "Complete now" }) }).first();
    await active.getByRole("button", { name: "Complete now" }).click();
    await expect(page.getByTestId("toast")).toContainText("Raffle Completed!");

    await page.getByRole("link", { name: "audit" }).click();
    for (const action of ["admin.gate_passed", "payout.approve", "payout.reject", "payout.bulk_approve", "raffle.complete_early"]) {
      await expect(page.getByTestId("audit-event").filter({ hasText: action }).first()).toBeVisible();
    }
    await page.getByRole("link", { name: "ledger" }).click();
    await expect(page.getByTestId("ledger-sum")).toContainText("(balanced)");
    await context.close();
  });
}

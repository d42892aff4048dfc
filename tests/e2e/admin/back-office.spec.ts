import { expect, test, type Browser } from "@playwright/test";
import { enrolledAdmin, grantWinnings, keepToasts, refundAtProvider, signInRequest, unique, unusedTotpCode, verifyEmailOf } from "../support";
import { scaled } from "../../support/timeouts";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

/**
 * The back office end to end, once with JavaScript and once without: pass the gate, approve
 * one payout, reject one, bulk-approve under $50, reconcile a refund the provider refused and
 * clear the flag it left (ADR 050), complete a raffle early, and find each in the audit log.
 */
const PASSWORD = "correct horse battery staple";

// One after the other: run side by side, one run's bulk approval pays the other's payout.
test.describe.configure({ mode: "default" });

/**
 * A player with a pending payout: paid with cash bought by card (refunded to the card when
 * approved), or, with `winnings`, with cash won (sent by transfer, by hand).
 */
async function playerWithPayout(browser: Browser, baseURL: string, dollars: number, { winnings = false } = {}) {
  const context = await browser.newContext({ baseURL });
  const email = `payout-${unique()}@example.com`;
  const headers = { Origin: baseURL };
  await context.request.post("/api/login", {
    form: { intent: "signup", email, password: PASSWORD, dateOfBirth: "1990-01-01", country: "IE", acceptTerms: "on" },
    headers,
    maxRedirects: 0,
  });
  // 1,000 demo coins (bonus, never withdrawn), plus package_4 bought three times with the
  // demo test card: $74.97 of withdrawable cash; or that much won.
  await verifyEmailOf(email);
  if (winnings) await grantWinnings(email, 7497);
  for (let i = 0; i < (winnings ? 0 : 3); i++) {
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
    test.setTimeout(scaled(90_000));
    const approveMe = await playerWithPayout(browser, baseURL!, 55);
    const rejectMe = await playerWithPayout(browser, baseURL!, 56);
    const bulkMe = await playerWithPayout(browser, baseURL!, 12);
    const transferMe = await playerWithPayout(browser, baseURL!, 57, { winnings: true });
    // $30: refunds of $24.99 and $5.01 to two of the three payments.
    const reviewMe = await playerWithPayout(browser, baseURL!, 30);
    await refundAtProvider(reviewMe);

    // An admin of this test's own, enrolled elsewhere; here the gate asks for their code (ADR 036).
    const enrolling = await browser.newContext({ baseURL });
    const admin = await enrolledAdmin(enrolling.request, baseURL!);
    await enrolling.close();
    const context = await browser.newContext({ baseURL, javaScriptEnabled });
    const page = await context.newPage();
    await signInRequest(page.request, baseURL!, admin.email, admin.password);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin-access$/);
    await page.getByLabel("Authentication code").fill(await unusedTotpCode(admin.email, admin.secret));
    await page.getByRole("button", { name: "Access Dashboard" }).click();
    await expect(page.getByRole("heading", { name: "Admin dashboard" })).toBeVisible();

    await page.getByTestId("payout").filter({ hasText: approveMe }).getByRole("button", { name: "Approve" }).click();
    await expect(page.getByTestId("toast")).toContainText("Payout updated successfully");
    // A rejection asks for the reason the player reads: none given, nothing happens but the question.
    const rejecting = page.getByTestId("payout").filter({ hasText: rejectMe });
    await rejecting.getByRole("button", { name: "Reject" }).click();
    await expect(page.getByTestId("toast")).toContainText("Choose or write the reason the player will read");
    await rejecting.getByLabel("Reason the player reads").selectOption("The payout details are wrong or incomplete");
    await rejecting.getByLabel("Message to the player").fill("Check the Venmo username");
    await rejecting.getByRole("button", { name: "Reject" }).click();
    await expect(page.getByTestId("toast")).toContainText("Payout updated successfully");
    await expect(page.getByTestId("payout").filter({ hasText: approveMe })).toHaveCount(0);
    await expect(page.getByTestId("payout").filter({ hasText: rejectMe })).toHaveCount(0);

    // Won cash goes by transfer: approved, it waits for the admin to send it and record its reference.
    await page.getByTestId("payout").filter({ hasText: transferMe }).getByRole("button", { name: "Approve" }).click();
    await expect(page.getByTestId("toast")).toContainText("Payout updated successfully");
    const transfer = page.getByTestId("transfer").filter({ hasText: transferMe });
    await expect(transfer).toContainText("$57.00");
    // Masked in the list; the full destination on the transfer step only.
    await expect(transfer).toContainText("Venmo ••••");
    await transfer.getByRole("link", { name: "Send and record" }).click();
    await expect(page.getByRole("heading", { name: "Send the transfer" })).toBeVisible();
    await expect(page.getByTestId("transfer-destination")).toContainText(/Venmo username\s*v-/);
    await page.getByLabel("Reference").fill(`BANK-${unique()}`);
    await page.getByRole("button", { name: "Record sent" }).click();
    await expect(page.getByTestId("toast")).toContainText("Payout updated successfully");
    await expect(page).toHaveURL(/\/admin\/payouts$/);
    await expect(page.getByTestId("transfer").filter({ hasText: transferMe })).toHaveCount(0);

    // Payments refunded at the provider meanwhile: both refunds are refused and held for review.
    await page.getByTestId("payout").filter({ hasText: reviewMe }).getByRole("button", { name: "Approve" }).click();
    await expect(page.getByTestId("toast")).toContainText("Payout updated successfully");
    const review = page.getByTestId("refund-review").filter({ hasText: reviewMe });
    await expect(review).toHaveCount(2);
    await review.first().getByLabel("Reference").fill(`re_${unique()}`);
    await review.first().getByRole("button", { name: "Record reached the card" }).click();
    await expect(page.getByTestId("toast")).toContainText("Payout updated successfully");
    await expect(review).toHaveCount(1);
    await review.getByLabel("Reason").fill("Not refunded at the provider");
    await review.getByRole("button", { name: "Record not refunded" }).click();
    await expect(page.getByTestId("toast")).toContainText("Payout updated successfully");
    await expect(review).toHaveCount(0);
    await page.getByRole("link", { name: "users" }).click();
    await page.getByLabel("Search").fill(reviewMe);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByRole("row").filter({ hasText: reviewMe })).toContainText("flagged: refund of a withdrawal refused by the provider");
    await page.getByLabel("Why").fill("Reconciled with the provider");
    await page.getByRole("button", { name: "Clear flag" }).click();
    await expect(page.getByTestId("toast")).toContainText("Flag cleared");
    await expect(page.getByRole("row").filter({ hasText: reviewMe })).not.toContainText("flagged");
    await page.getByRole("link", { name: "payouts" }).click();

    // Bulk approval says how many and how much, and waits for the admin to confirm.
    await page.getByRole("button", { name: "Auto-approve up to $50" }).click();
    await expect(page.getByTestId("bulk-summary")).toContainText(/This approves \d+ payouts?, \$[\d,.]+ in all/);
    await page.getByRole("button", { name: /^Approve \d+ payouts?$/ }).click();
    await expect(page.getByTestId("toast")).toContainText("Payout updated successfully");
    await expect(page.getByTestId("payout").filter({ hasText: bulkMe })).toHaveCount(0);

    await page.getByRole("link", { name: "raffles" }).click();
    // A quick round: completing it early never takes a long raffle away from other tests.
    // A 30-second round may end (and be drawn) between the list and the click: the site then
    // says so, and the admin takes the next one.
    await expect(async () => {
      await page.getByRole("link", { name: "raffles" }).click();
      const active = page
        .getByTestId("admin-raffle")
        .filter({ hasText: "quick" })
        .filter({ has: page.getByRole("button", { name: "Complete now" }) })
        .first();
      await active.getByRole("button", { name: "Complete now" }).click();
      await expect(page.getByTestId("toast")).toContainText(/Raffle Completed!|This raffle is no longer active/);
      await expect(page.getByTestId("toast")).toContainText("Raffle Completed!", { timeout: scaled(1000) });
    }).toPass({ timeout: scaled(20_000) });

    await page.getByRole("link", { name: "audit" }).click();
    // Admins' actions only: the scheduler's and the players' rows would push them off the first page.
    await page.getByLabel("Who").selectOption("admin");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/actor=admin/);
    for (const action of ["admin.gate_passed", "payout.approve", "payout.reject", "payout.bulk_approve", "user.clear_flag", "raffle.complete_early"]) {
      await expect(page.getByTestId("audit-event").filter({ hasText: action }).first()).toBeVisible();
    }
    await page.getByRole("link", { name: "ledger" }).click();
    await expect(page.getByTestId("ledger-sum")).toContainText("(balanced)");
    await context.close();

    // The rejected player is told on their withdraw page, with the reason; the others see where their money went.
    const players = await browser.newContext({ baseURL, javaScriptEnabled });
    const mine = await players.newPage();
    await signInRequest(mine.request, baseURL!, rejectMe, PASSWORD);
    await mine.goto("/withdraw");
    await expect(mine.getByTestId("withdrawal").first()).toContainText("failed");
    await expect(mine.getByTestId("withdrawal-reason").first()).toHaveText("Why: The payout details are wrong or incomplete. Check the Venmo username");
    await mine.context().clearCookies();
    await signInRequest(mine.request, baseURL!, approveMe, PASSWORD);
    await mine.goto("/withdraw");
    await expect(mine.getByTestId("withdrawal").first()).toContainText("completed");
    await expect(mine.getByTestId("withdrawal-leg").first()).toContainText("Back to the card you paid with on");
    await players.close();
  });
}

import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";
import { enrolledAdmin, keepToasts, refundAtProvider, signInRequest, unique, unusedTotpCode, verifyEmailOf } from "../support";
import { scaled } from "../../support/timeouts";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

/**
 * The back office on a 360 px phone, with and without JavaScript: each tab at its own address
 * (ADR 043), the old ?tab= ones redirected; no page wider than the
 * screen, a payout's Approve and Reject on screen, and so a refund held for review's forms and
 * a flagged player's Clear flag (ADR 050); the audit log's filters, the raffles
 * tab's toggle and the revenue chart's periods as plain links and forms.
 */
const PASSWORD = "correct horse battery staple";

/** A player with a $60 payout pending (above the $50 the other back-office test bulk-approves). */
async function playerWithPayout(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  const email = `mobile-payout-${unique()}@example.com`;
  const headers = { Origin: baseURL };
  await context.request.post("/api/login", {
    form: { intent: "signup", email, password: PASSWORD, dateOfBirth: "1990-01-01", country: "IE", acceptTerms: "on" },
    headers,
    maxRedirects: 0,
  });
  for (let i = 0; i < 3; i++) {
    await context.request.post("/checkout?package=package_4", {
      form: { intent: "demo-pay", cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" },
      headers,
      maxRedirects: 0,
    });
  }
  await verifyEmailOf(email);
  const response = await context.request.post("/api/withdraw", {
    data: { amount: 60, method: "venmo", accountInfo: `v-${unique()}` },
    headers: { ...headers, Accept: "application/json" },
  });
  expect(response.status()).toBe(200);
  await context.close();
  return email;
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** The button fits across the 360 px screen, at least 24 px tall (a tap target). */
async function expectOnScreen(button: Locator) {
  await button.scrollIntoViewIfNeeded();
  const box = (await button.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  expect(box.height).toBeGreaterThanOrEqual(24);
}

for (const javaScriptEnabled of [true, false]) {
  test(`the back office on a 360 px phone ${javaScriptEnabled ? "with" : "without"} JavaScript`, async ({ browser, baseURL }) => {
    test.setTimeout(scaled(90_000));
    const payee = await playerWithPayout(browser, baseURL!);
    const refused = await playerWithPayout(browser, baseURL!);
    await refundAtProvider(refused);
    const context = await browser.newContext({ baseURL, javaScriptEnabled, viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const enrolling = await browser.newContext({ baseURL });
    const admin = await enrolledAdmin(enrolling.request, baseURL!);
    await enrolling.close();
    await signInRequest(page.request, baseURL!, admin.email, admin.password);
    await page.goto("/admin");
    await page.getByLabel("Authentication code").fill(await unusedTotpCode(admin.email, admin.secret));
    await page.getByRole("button", { name: "Access Dashboard" }).click();
    await expect(page.getByRole("heading", { name: "Admin dashboard" })).toBeVisible();

    // Each tab at its own address (ADR 043), reached by the tab links, the open one marked.
    await expect(page).toHaveURL(/\/admin\/payouts$/);
    for (const tab of ["payouts", "users", "raffles", "complaints", "audit", "ledger"]) {
      await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: tab }).click();
      await expect(page).toHaveURL(new RegExp(`/admin/${tab}$`));
      await expect(page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: tab })).toHaveAttribute("aria-current", "page");
      expect(await overflow(page), `/admin/${tab} is wider than the screen`).toBeLessThanOrEqual(0);
    }
    // An old bookmark (/admin?tab=...) still opens its tab.
    await page.goto("/admin?tab=users&q=nobody-by-this-name");
    await expect(page).toHaveURL(/\/admin\/users\?q=nobody-by-this-name$/);
    await expect(page.getByRole("region", { name: "Users" }).getByRole("textbox", { name: "Search" })).toHaveValue("nobody-by-this-name");

    await page.goto("/admin/payouts");
    const row = page.getByTestId("payout").filter({ hasText: payee });
    for (const name of ["Approve", "Reject"]) await expectOnScreen(row.getByRole("button", { name }));

    // Approved, the refused player's refunds are held for review, each with its two forms on screen.
    await page.getByTestId("payout").filter({ hasText: refused }).getByRole("button", { name: "Approve" }).click();
    await expect(page.getByTestId("toast")).toContainText("Payout updated successfully");
    const review = page.getByTestId("refund-review").filter({ hasText: refused }).first();
    await expect(review).toBeVisible();
    expect(await overflow(page), "/admin/payouts with refunds held for review is wider than the screen").toBeLessThanOrEqual(0);
    for (const name of ["Record reached the card", "Record not refunded"]) await expectOnScreen(review.getByRole("button", { name }));
    await page.goto(`/admin/users?q=${encodeURIComponent(refused)}`);
    await expect(page.getByRole("button", { name: "Clear flag" })).toBeVisible();
    expect(await overflow(page), "/admin/users with a flagged player is wider than the screen").toBeLessThanOrEqual(0);
    await page.goto("/admin/payouts");

    // Revenue over time: daily by default, weekly and monthly a link away.
    await expect(page.getByTestId("revenue-bar")).toHaveCount(30);
    await page.getByRole("link", { name: "weekly" }).click();
    await expect(page).toHaveURL(/\/admin\/payouts\?revenue=weekly$/);
    await expect(page.getByTestId("revenue-bar")).toHaveCount(12);
    await expect(page.getByTestId("revenue-chart")).toContainText("per week");

    // Raffles: empty cancelled rounds hidden, a link shows them.
    await page.goto("/admin/raffles");
    await page.getByRole("link", { name: "Show empty cancelled rounds" }).click();
    await expect(page).toHaveURL(/empty=1/);
    await expect(page.getByRole("link", { name: "Hide empty cancelled rounds" })).toBeVisible();

    // The audit log: admins' actions only, with names.
    await page.goto("/admin/audit");
    await page.getByLabel("Who").selectOption("admin");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/actor=admin/);
    const events = page.getByTestId("audit-event");
    await expect(events.first()).toContainText("(admin)");
    for (const text of await events.allInnerTexts()) expect(text).toContain("(admin)");
    await expect(events.filter({ hasText: "admin.gate_passed" }).first()).toBeVisible();
    await context.close();
  });
}

import { expect, test } from "@playwright/test";
import { DEMO_ADMIN_TOTP_SECRET, DEMO_BOOTSTRAP_KEY, newAdmin, signInRequest, unusedTotpCode } from "../support";
import { scaled } from "../../support/timeouts";

/**
 * The admin gate's second factor (ADR 036), in the desktop project only (each test drives
 * both modes itself): the demo admin's code from the README's secret is spent once per
 * 30-second step, so it is used here and nowhere else in the suites.
 */
for (const javaScriptEnabled of [true, false]) {
  test(`an admin enrols at the gate with the key and a QR code, then passes it with a code, ${javaScriptEnabled ? "with" : "without"} JavaScript`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(scaled(60_000));
    const admin = await newAdmin();
    const context = await browser.newContext({ baseURL, javaScriptEnabled });
    const page = await context.newPage();
    await signInRequest(page.request, baseURL!, admin.email, admin.password);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin-access$/);
    await page.getByLabel("Security Key").fill("not-the-key-at-all");
    await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
    await expect(page.getByRole("alert")).toContainText("Access Denied");
    await page.getByLabel("Security Key").fill(DEMO_BOOTSTRAP_KEY);
    await page.getByRole("button", { name: "Set up two-factor authentication" }).click();

    const qr = page.getByRole("img", { name: "QR code for your authenticator app" });
    await expect(qr).toBeVisible();
    expect(await qr.getAttribute("src")).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    const secret = (await page.getByTestId("totp-secret").innerText()).trim();
    await page.getByLabel("Code from the app").fill(await unusedTotpCode(admin.email, secret));
    await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
    await expect(page.getByTestId("recovery-codes").getByRole("listitem")).toHaveCount(10);
    await page.getByRole("link", { name: "Continue to the dashboard" }).click();
    await expect(page.getByRole("heading", { name: "Admin dashboard" })).toBeVisible();
    await context.close();

    // Another browser: the gate asks for the admin's own code; a wrong one is refused.
    const later = await browser.newContext({ baseURL, javaScriptEnabled });
    const gate = await later.newPage();
    await signInRequest(gate.request, baseURL!, admin.email, admin.password);
    await gate.goto("/admin");
    await gate.getByLabel("Authentication code").fill("000000");
    await gate.getByRole("button", { name: "Access Dashboard" }).click();
    await expect(gate.getByRole("alert")).toContainText("Access Denied");
    await gate.getByLabel("Authentication code").fill(await unusedTotpCode(admin.email, secret));
    await gate.getByRole("button", { name: "Access Dashboard" }).click();
    await expect(gate.getByRole("heading", { name: "Admin dashboard" })).toBeVisible();
    await later.close();
  });
}

test("the demo admin passes the gate with a code from the README's secret", async ({ page }) => {
  await page.goto("/api/login?returnTo=%2Fadmin");
  const signIn = page.getByRole("form", { name: "Sign in" });
  await signIn.getByLabel("Email").fill("admin@demo.test");
  await signIn.getByLabel("Password").fill("demo-admin-pass");
  await signIn.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Administrative Access" })).toBeVisible();
  await page.getByLabel("Authentication code").fill(await unusedTotpCode("admin@demo.test", DEMO_ADMIN_TOTP_SECRET));
  await page.getByRole("button", { name: "Access Dashboard" }).click();
  await expect(page).toHaveURL(/\/admin\/payouts$/);
  await expect(page.getByRole("heading", { name: "Admin dashboard" })).toBeVisible();
});

import { expect, test } from "@playwright/test";
import { signUpWithUsername, unusedTotpCode } from "./support";
import { scaled } from "../support/timeouts";

/** A player turns on TOTP in settings and signs in with it (ADR 036); in every project, with and without JavaScript. */
test("a player turns on two-factor authentication and signs in with a code, then with a recovery code", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  test.setTimeout(scaled(60_000));
  const { email } = await signUpWithUsername(page);
  await page.goto("/settings/two-factor");
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").innerText()).trim();
  await page.getByLabel("Code from the app").fill("12345");
  await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  await expect(page.getByRole("alert")).toContainText("That code is not right");
  await page.getByLabel("Code from the app").fill(await unusedTotpCode(email, secret));
  await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  // allInnerTexts does not wait: wait for the list first (the last alert may still show).
  await expect(page.getByTestId("recovery-codes").getByRole("listitem")).toHaveCount(10);
  const codes = await page.getByTestId("recovery-codes").getByRole("listitem").allInnerTexts();

  for (const code of [() => unusedTotpCode(email, secret), async () => codes[0]!]) {
    const context = await browser.newContext({ baseURL, javaScriptEnabled, viewport: page.viewportSize() });
    const other = await context.newPage();
    await other.goto("/api/login?returnTo=%2Fhistory");
    const signIn = other.getByRole("form", { name: "Sign in" });
    await signIn.getByLabel("Email").fill(email);
    await signIn.getByLabel("Password").fill("correct horse battery staple");
    await signIn.getByRole("button", { name: "Sign in" }).click();
    await expect(other.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
    await other.getByLabel("Authentication code").fill("000000");
    await other.getByRole("button", { name: "Sign in" }).click();
    await expect(other.getByRole("alert")).toContainText("That code is not right");
    await other.getByLabel("Authentication code").fill(await code());
    await other.getByRole("button", { name: "Sign in" }).click();
    await expect(other).toHaveURL(/\/history$/);
    await context.close();
  }
});

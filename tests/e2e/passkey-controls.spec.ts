import { expect, test } from "@playwright/test";
import { signUpWithUsername } from "./support";

/**
 * Passkeys need the browser's WebAuthn API, so JavaScript (ADR 037). With it, the sign-in
 * page and the passkeys page offer them; without it, both say they need JavaScript, the
 * passkeys page still lists (and removes), and the password signs in as always.
 */
const NEEDS_JAVASCRIPT = "Passkeys need JavaScript in this browser. Your password works as always.";

test("passkey controls with JavaScript, a note without it, and the password signs in either way", async ({ page, javaScriptEnabled }) => {
  const { email } = await signUpWithUsername(page);
  await page.goto("/account/passkeys");
  await expect(page.getByTestId("no-passkeys")).toBeVisible();
  if (javaScriptEnabled) {
    await expect(page.getByRole("button", { name: "Add a passkey" })).toBeVisible();
  } else {
    await expect(page.getByText(NEEDS_JAVASCRIPT)).toBeVisible();
    await expect(page.getByRole("button", { name: "Add a passkey" })).toHaveCount(0);
  }

  await page.goto("/api/logout");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/api/login?returnTo=%2Faccount%2Fpasskeys");
  if (javaScriptEnabled) {
    await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toBeVisible();
  } else {
    await expect(page.getByText(NEEDS_JAVASCRIPT)).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toHaveCount(0);
  }
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill("correct horse battery staple");
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/account\/passkeys$/);
});

import { expect, test, type CDPSession, type Page } from "@playwright/test";
import { enrolledAdmin, keepToasts, signUpWithUsername } from "../support";
import { scaled } from "../../support/timeouts";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

/**
 * Passkeys (ADR 037) in Chromium's virtual authenticator (DevTools protocol): a platform
 * authenticator with resident keys that verifies its user, as a phone or laptop would.
 * Register one in settings, sign out, sign in with it (no email, no password), see it
 * listed as used, remove it, and see it refused afterwards.
 */
test.setTimeout(scaled(120_000));

async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

async function signOut(page: Page) {
  await page.goto("/api/logout");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
}

test("register a passkey in settings, sign out, sign in with it, see it listed, remove it", async ({ page }) => {
  const { cdp, authenticatorId } = await virtualAuthenticator(page);
  await signUpWithUsername(page);

  await page.goto("/settings");
  await page.getByRole("link", { name: "Passkeys" }).click();
  await expect(page.getByRole("heading", { name: "Passkeys" })).toBeVisible();
  await expect(page.getByTestId("no-passkeys")).toBeVisible();
  await page.getByLabel("Passkey name").fill("Work laptop");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByTestId("toast")).toContainText("Passkey added");
  await expect(page.getByTestId("passkey")).toHaveCount(1);
  await expect(page.getByTestId("passkey")).toContainText("Work laptop");
  await expect(page.getByTestId("passkey")).toContainText("not used yet");
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);

  // Signed out, the passkey alone signs in: no email, no password.
  await signOut(page);
  await page.goto("/api/login?returnTo=%2Faccount%2Fpasskeys");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL(/\/account\/passkeys$/);
  await expect(page.getByTestId("passkey")).toContainText(/last used/);
  const after = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(after.credentials[0]!.signCount).toBeGreaterThan(credentials[0]!.signCount);

  // Removed, it no longer signs in, though the device still holds it.
  await page.getByRole("button", { name: "Remove Work laptop" }).click();
  await expect(page.getByTestId("toast")).toContainText("Passkey removed");
  await expect(page.getByTestId("no-passkeys")).toBeVisible();
  await signOut(page);
  await page.goto("/api/login");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("alert")).toContainText("That passkey was not accepted");
  await expect(page).toHaveURL(/\/api\/login/);
});

test("an admin adds a passkey with the back office open, and signed in with it, passes the admin gate without a code", async ({ page, baseURL }) => {
  await virtualAuthenticator(page);
  // Signed in with the password and past the gate with the authenticator app's code.
  await enrolledAdmin(page.request, baseURL!);
  await page.goto("/account/passkeys");
  await page.getByLabel("Passkey name").fill("Admin laptop");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByTestId("toast")).toContainText("Passkey added");

  await signOut(page);
  await page.goto("/api/login?returnTo=%2Fadmin-access");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL(/\/admin-access$/);
  await expect(page.getByLabel("Authentication code")).toBeVisible();
  await page.getByRole("button", { name: "Continue with your passkey" }).click();
  await expect(page).toHaveURL(/\/admin\/payouts$/);
  await expect(page.getByRole("heading", { name: "Admin dashboard" })).toBeVisible();
});

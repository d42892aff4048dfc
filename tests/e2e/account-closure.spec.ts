import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { excludeSelf, hydratedIfJavaScript, keepToasts, signUpWithUsername, submitSignUp } from "./support";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

/** Taking one's data and closing the account from settings, with and without JavaScript (ADR 035). */
test("download my data, then close the account from settings: signed out, and the account cannot sign in again", async ({ page, javaScriptEnabled }) => {
  const { email, username } = await signUpWithUsername(page);
  await page.goto("/");
  // With JavaScript the settings open as a dialog (once hydrated); without, as their own page.
  await hydratedIfJavaScript(page);
  await page.getByRole("link", { name: "Settings" }).click();
  const settings = javaScriptEnabled ? page.getByRole("dialog", { name: "Settings" }) : page.getByRole("main");
  await settings.getByRole("link", { name: "Close account" }).click();
  await expect(page.getByRole("heading", { name: "Close your account" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Responsible play" })).toBeVisible();
  await expect(page.getByTestId("close-bonus")).toHaveText("1,000");

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-link").click()]);
  expect(download.suggestedFilename()).toMatch(/^raffle-rush-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(await readFile((await download.path())!, "utf8")) as { profile: { email: string; username: string } };
  expect(data.profile).toMatchObject({ email, username });

  await page.getByLabel("Your password").fill("not my password");
  await page.getByRole("button", { name: "Close my account" }).click();
  // Beside the field: the input is marked invalid and described by the message.
  await expect(page.getByLabel("Your password")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Your password")).toHaveAccessibleDescription(/That password is not right/);

  await page.getByLabel("Your password").fill("correct horse battery staple");
  await page.getByRole("button", { name: "Close my account" }).click();
  await expect(page.getByTestId("toast")).toContainText("Your account is closed");
  await page.goto("/account/close");
  await expect(page).toHaveURL(/\/api\/login/);

  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill("correct horse battery staple");
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Invalid email or password.")).toBeVisible();
});

/** Issue 31, item 3 (ADR 053): closing the account does not undo a self-exclusion. */
test("a self-exclusion outlives the account: signing up again with the same email is refused, and nothing is created", async ({ page }) => {
  const { email } = await signUpWithUsername(page);
  await excludeSelf(page, "5y");

  await page.goto("/account/close");
  await page.getByLabel("Your password").fill("correct horse battery staple");
  await page.getByRole("button", { name: "Close my account" }).click();
  await expect(page.getByTestId("toast")).toContainText("Your account is closed");

  const form = await submitSignUp(page, email);
  await expect(form.getByTestId("form-error-summary")).toContainText(/You excluded yourself from play until \d{4}-\d{2}-\d{2}/);
  await expect(page.getByRole("dialog", { name: "Choose your username" })).toHaveCount(0);

  const signIn = page.getByRole("form", { name: "Sign in" });
  await signIn.getByLabel("Email").fill(email);
  await signIn.getByLabel("Password").fill("correct horse battery staple");
  await signIn.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Invalid email or password.")).toBeVisible();
});

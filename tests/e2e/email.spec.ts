import { expect, test, type Page } from "@playwright/test";
import { keepToasts, unique } from "./support";
import { scaled } from "../support/timeouts";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

/**
 * Mail that arrives (ADR 032), in every project (desktop, mobile, JavaScript off). The
 * end-to-end server has no SMTP_URL: its sender writes .eml files, which demo mode lists
 * at /dev/mail, where these tests read them as a person trying the site would.
 */
const PASSWORD = "correct horse battery staple";
// Many page loads, two password hashes and the sender's passes: more than the default 30 s on a busy machine.
test.setTimeout(scaled(180_000));
const NEW_PASSWORD = "a brand new password for e2e";

async function signUp(page: Page, email: string) {
  await page.goto("/api/login");
  const form = page.getByRole("form", { name: "Create an account" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(PASSWORD);
  await form.getByLabel("Date of birth").fill("1990-05-17");
  await form.getByLabel("Country where you live").selectOption("GB");
  await form.getByLabel(/accept the/).check();
  await form.getByRole("button", { name: "Create account" }).click();
  // Sign-up hashes the password (scrypt): slow on a busy machine.
  await expect(page.getByRole("dialog", { name: "Choose your username" })).toBeVisible({ timeout: scaled(15_000) });
}

/** Opens the newest message to `email` with this subject, once the sender has written it. */
async function openMail(page: Page, email: string, subject: string) {
  const item = page
    .getByRole("listitem")
    .filter({ hasText: `To ${email}` })
    .filter({ hasText: subject });
  await expect(async () => {
    await page.goto("/dev/mail");
    await expect(item.first()).toBeVisible({ timeout: scaled(1_000) });
  }).toPass({ timeout: scaled(30_000) });
  await item.first().getByRole("link", { name: subject }).click();
  await expect(page.getByRole("heading", { name: subject })).toBeVisible();
}

test("forgot password: from the sign-in page to a new password through the mail that arrives", async ({ page, browser, baseURL }) => {
  const email = `reset-${unique()}@example.com`;
  await signUp(page, email);

  // Another browser, signed out, forgets the password.
  const context = await browser.newContext({ baseURL, javaScriptEnabled: test.info().project.name !== "no-javascript" });
  const other = await context.newPage();
  await other.goto("/api/login");
  await other.getByRole("link", { name: "Forgot password?" }).click();
  await expect(other.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await other.getByLabel("Email").fill(email);
  await other.getByRole("button", { name: "Send me a link" }).click();
  await expect(other.getByRole("status")).toContainText(`If an account uses ${email}, we have sent it a link`);

  await openMail(other, email, "Reset your password");
  await other.getByRole("link", { name: /\/reset-password\// }).click();
  await expect(other.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await other.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await other.getByLabel("New password, again").fill(NEW_PASSWORD);
  await other.getByRole("button", { name: "Set new password" }).click();
  await expect(other.getByTestId("toast")).toContainText("Password changed");

  const signIn = other.getByRole("form", { name: "Sign in" });
  await signIn.getByLabel("Email").fill(email);
  await signIn.getByLabel("Password").fill(NEW_PASSWORD);
  await signIn.getByRole("button", { name: "Sign in" }).click();
  await expect(other.getByRole("dialog", { name: "Choose your username" })).toBeVisible({ timeout: scaled(15_000) });

  // The reset ended the first browser's session; "password changed" arrived.
  await page.goto("/withdraw");
  await expect(page).toHaveURL(/\/api\/login\?returnTo=%2Fwithdraw/);
  await openMail(other, email, "Your password was changed");
  await context.close();
});

test("verify the email with the code from the message before a first withdrawal", async ({ page }) => {
  const email = `verify-${unique()}@example.com`;
  await signUp(page, email);
  const username = `v_${unique()}`.slice(0, 20);
  const dialog = page.getByRole("dialog", { name: "Choose your username" });
  await dialog.getByLabel("Username").fill(username);
  await dialog.getByRole("button", { name: "Create Username" }).click();
  await expect(dialog).toHaveCount(0);

  await page.goto("/withdraw");
  const panel = page.getByRole("region", { name: "Verify your email before your first withdrawal" });
  await expect(panel).toContainText(email);

  const mailPage = await page.context().newPage();
  await openMail(mailPage, email, "Verify your email");
  const code = /Your code: (\d{6})/.exec(await mailPage.getByTestId("mail-text").innerText())![1]!;
  await mailPage.close();

  // A wrong code: the message beside the field (with JavaScript on /withdraw, without on /verify-email's same panel).
  await panel.getByLabel("Code").fill(code === "000000" ? "111111" : "000000");
  await panel.getByRole("button", { name: "Verify" }).click();
  await expect(panel.getByLabel("Code")).toHaveAccessibleDescription(/That code is not right/);
  await panel.getByLabel("Code").fill(code);
  await panel.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByTestId("toast")).toContainText("Email verified");
  await expect(page.getByRole("region", { name: "Verify your email before your first withdrawal" })).toHaveCount(0);
});

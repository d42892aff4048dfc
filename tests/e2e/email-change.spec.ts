import { expect, test, type Page } from "@playwright/test";
import { keepToasts, signUpWithUsername, unique } from "./support";
import { scaled } from "../support/timeouts";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

/**
 * Changing the email (ADR 037), in every project (desktop, mobile, JavaScript off): asked
 * from settings with the password, confirmed with the code the new address receives (read
 * at /dev/mail, as a person trying the site would), and the old address told.
 */
test.setTimeout(scaled(120_000));

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

test("change the email from settings: confirmed with the code sent to the new address, the old one told", async ({ page }) => {
  const { email } = await signUpWithUsername(page);
  const newEmail = `changed-${unique()}@example.com`;

  await page.goto("/settings");
  await page.getByRole("link", { name: "Change email" }).click();
  await expect(page.getByRole("heading", { name: "Change email" })).toBeVisible();
  await expect(page.getByTestId("current-email")).toHaveText(email);
  await page.getByLabel("New email").fill(newEmail);
  await page.getByLabel("Your password").fill("correct horse battery staple");
  await page.getByRole("button", { name: "Send confirmation" }).click();
  await expect(page.getByTestId("pending-email")).toHaveText(newEmail);
  // Nothing changed yet.
  await expect(page.getByTestId("current-email")).toHaveText(email);

  const mailPage = await page.context().newPage();
  await openMail(mailPage, newEmail, "Confirm your new email address");
  const code = /Your code: (\d{6})/.exec(await mailPage.getByTestId("mail-text").innerText())![1]!;

  await page.getByLabel("6-digit code from the message").fill(code);
  await page.getByRole("button", { name: "Confirm new email" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByTestId("toast")).toContainText("Email changed");
  await expect(page.getByRole("region", { name: "Account" })).toContainText(newEmail);

  await openMail(mailPage, email, "Your email address was changed");
  await expect(mailPage.getByTestId("mail-text")).toContainText(newEmail);
  await mailPage.close();
});

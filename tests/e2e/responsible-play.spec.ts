import { expect, test } from "@playwright/test";
import { keepToasts, signUpWithUsername, toastText, unique } from "./support";
import { scaled } from "../support/timeouts";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

/** Runs with and without JavaScript: plain forms and page loads. */
test("sign-up asks where the player lives and refuses places the site does not serve", async ({ page }) => {
  await page.goto("/api/login");
  const form = page.getByRole("form", { name: "Create an account" });
  await form.getByLabel("Email").fill(`abroad-${unique()}@example.com`);
  await form.getByLabel("Password").fill("correct horse battery staple");
  await form.getByLabel("Date of birth").fill("1990-05-17");
  await form.getByLabel("Country where you live").selectOption("FR");
  await form.getByLabel(/accept the/).check();
  await form.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("form-error-summary")).toContainText("Sorry, Raffle Rush is not available in France.");

  await form.getByLabel("Country where you live").selectOption("US");
  await form.getByLabel("State or province").selectOption("US-NJ");
  await form.getByLabel("Password").fill("correct horse battery staple");
  await form.getByLabel("24-hour limit ($)").fill("25");
  await form.getByLabel(/accept the/).check();
  await form.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("dialog", { name: "Choose your username" })).toBeVisible();

  await page.goto("/responsible-play");
  await expect(page.getByTestId("limit-day").getByLabel("24-hour limit ($)")).toHaveValue("25.00");
});

test("the reality check comes after the chosen interval (shortened here), with the session's length and net result", async ({ page }) => {
  await signUpWithUsername(page);
  await page.goto("/quick");
  await expect(page.getByTestId("session-clock")).toBeVisible();

  await page.goto("/responsible-play");
  await page.getByTestId("reality-minutes").selectOption("15");
  await page.getByRole("region", { name: "Reality check" }).getByRole("button", { name: "Save" }).click();
  await expect.poll(() => toastText(page)).toContain("We will remind you every 15 minutes of play.");

  // A "minute" lasts 0.2 s in the test server: the reminder is due 3 s after the stretch began.
  await page.goto("/quick");
  const reminder = page.getByRole("alertdialog", { name: "Reality check" });
  await expect(async () => {
    if (!(await reminder.isVisible())) await page.reload();
    await expect(reminder).toBeVisible({ timeout: scaled(1000) });
  }).toPass({ timeout: scaled(20_000) });
  await expect(reminder).toContainText("You have been playing for");
  await expect(reminder.getByTestId("reality-net")).toHaveText("0 coins");
  await expect(reminder.getByRole("link", { name: "View history" })).toHaveAttribute("href", "/history");
  await expect(reminder.getByRole("link", { name: "Stop playing" })).toHaveAttribute("href", "/api/logout");

  await reminder.getByRole("button", { name: "Keep playing" }).click();
  await expect(reminder).toBeHidden();
  await expect(page).toHaveURL(/\/quick$/);
});

test("a limit that is not an amount, or a break not confirmed, is refused beside the field (by the server without JavaScript), and a good one is saved", async ({
  page,
}) => {
  await signUpWithUsername(page);
  await page.goto("/responsible-play");
  const week = page.getByTestId("limit-week");
  const amount = week.getByLabel("7-day limit ($)");
  await amount.fill("lots");
  await week.getByRole("button", { name: "Save" }).click();
  await expect(week.getByRole("alert")).toHaveText("Enter a limit in dollars, like 50 or 25.50");
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await expect(amount).toHaveAccessibleDescription("Enter a limit in dollars, like 50 or 25.50");
  await expect(amount).toHaveValue("lots");
  await expect(page.getByTestId("limit-day").getByRole("alert")).toHaveCount(0);

  await amount.fill("30");
  await week.getByRole("button", { name: "Save" }).click();
  await expect.poll(() => toastText(page)).toContain("Your new limit applies now.");
  await expect(page.getByTestId("limit-week").getByLabel("7-day limit ($)")).toHaveValue("30.00");
  await expect(page.getByTestId("limit-week").getByRole("alert")).toHaveCount(0);

  const breakForm = page.getByRole("region", { name: "Take a break or exclude yourself" });
  await breakForm.getByRole("button", { name: "Start" }).click();
  await expect(breakForm.getByRole("alert")).toHaveText("Please confirm");
  await expect(breakForm.getByRole("checkbox")).toHaveAccessibleDescription("Please confirm");
  await expect(page.getByTestId("exclusion-status")).toHaveCount(0);
});

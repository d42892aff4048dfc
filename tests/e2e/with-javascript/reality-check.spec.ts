import { expect, test } from "@playwright/test";
import { keepToasts, signUpWithUsername, toastText } from "../support";
import { scaled } from "../../support/timeouts";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

test("with JavaScript the reality check rises on its own while the page stays open, and the clock ticks", async ({ page }) => {
  await signUpWithUsername(page);
  await page.goto("/responsible-play");
  await page.getByTestId("reality-minutes").selectOption("15");
  await page.getByRole("region", { name: "Reality check" }).getByRole("button", { name: "Save" }).click();
  await expect.poll(() => toastText(page)).toContain("We will remind you every 15 minutes of play.");

  await page.goto("/");
  const clock = page.getByTestId("session-clock");
  const first = await clock.innerText();
  await expect(clock).not.toHaveText(first);
  // No reload: the page's timer brings it (a "minute" is 0.2 s on the test server).
  const reminder = page.getByRole("alertdialog", { name: "Reality check" });
  await expect(reminder).toBeVisible({ timeout: scaled(20_000) });
  await expect(reminder.getByRole("button", { name: "Keep playing" })).toBeFocused();
  await reminder.getByRole("button", { name: "Keep playing" }).click();
  await expect(reminder).toBeHidden();
  // And it comes back one interval later.
  await expect(reminder).toBeVisible({ timeout: scaled(20_000) });
});

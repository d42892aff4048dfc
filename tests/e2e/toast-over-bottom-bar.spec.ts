import { expect, test } from "@playwright/test";
import { signUpWithUsername } from "./support";

// The phone's bottom bar, in every project: a phone's width (it is hidden from sm up).
test.use({ viewport: { width: 390, height: 844 } });

/**
 * Issue 33, item 5: the toast list sat over the phone's bottom bar and caught its taps (a
 * toast without JavaScript stays for good). A toast that lasts (not keepToasts, which lets
 * taps through on purpose) must leave the bar to the player's finger.
 */
test("a toast leaves the phone's bottom bar free to tap", async ({ page }) => {
  await page.addInitScript(() => {
    window.__toastDurationMs = Infinity;
  });
  await signUpWithUsername(page);
  const toast = page.getByTestId("toast");
  await expect(toast).toContainText("Username Created!");
  const bar = page.getByRole("navigation", { name: "Mobile" });
  const [toastBox, barBox] = [await toast.boundingBox(), await bar.boundingBox()];
  expect(toastBox!.y + toastBox!.height).toBeLessThanOrEqual(barBox!.y);
  await bar.getByRole("link", { name: "Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(bar.getByRole("link", { name: "Raffles" })).toBeVisible();
  // With JavaScript the toast is still there: the bar still takes taps.
  await bar.getByRole("link", { name: "Winners" }).click();
  await expect(page).toHaveURL(/#winners$/);
});

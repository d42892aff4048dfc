import { expect, test } from "@playwright/test";
import { scaled } from "../../support/timeouts";
import { hydratedIfJavaScript, keepToasts, signUpWithUsername } from "../support";

/**
 * Issue 33 item 3: the spin's toast ("You won 25 coins!") used to arrive as the wheel began to
 * slow, 4 s before it stopped, telling the reward before the wheel showed it. It waits for the stop.
 */
test("the spin's toast waits until the wheel has stopped on the reward", async ({ page }) => {
  test.setTimeout(scaled(90_000));
  await keepToasts(page);
  await signUpWithUsername(page);
  await page.goto("/");
  await hydratedIfJavaScript(page);
  // Notes the wheel's phase at the moment a toast first appears.
  await page.evaluate(() => {
    const seen = window as unknown as { phaseAtToast?: string | null };
    seen.phaseAtToast = null;
    new MutationObserver(() => {
      if (seen.phaseAtToast === null && document.querySelector('[data-testid="toast"]')) {
        seen.phaseAtToast = document.querySelector('[data-testid="wheel-disc"]')?.getAttribute("data-phase") ?? "none";
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await page.getByTestId("spin-button").click();
  await expect(page.getByTestId("wheel-disc")).toHaveAttribute("data-phase", "stopping", { timeout: scaled(20_000) });
  await expect(page.getByTestId("toast")).toHaveCount(0);
  await expect(page.getByTestId("toast").filter({ hasText: "You won" })).toBeVisible({ timeout: scaled(20_000) });
  expect(await page.evaluate(() => (window as unknown as { phaseAtToast?: string | null }).phaseAtToast)).toBe("rest");
});

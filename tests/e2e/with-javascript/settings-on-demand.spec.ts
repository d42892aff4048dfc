import { expect, test } from "@playwright/test";
import { signUpWithUsername } from "../support";

/**
 * The settings dialog's code loads when the player reaches for it, not with every page
 * (ADR 095): a page that cannot fetch it opens the settings page instead of breaking.
 */
test("the settings dialog's code comes on demand, and the settings page stands in when it cannot", async ({ page }) => {
  await signUpWithUsername(page);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  const fetched: string[] = [];
  page.on("request", (request) => /settings-dialog-[^/]*\.js$/.test(request.url()) && fetched.push(request.url()));
  await page.route(/settings-dialog-[^/]*\.js$/, (route) => route.abort());
  expect(fetched).toEqual([]);

  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  expect(fetched.length).toBeGreaterThan(0);
});

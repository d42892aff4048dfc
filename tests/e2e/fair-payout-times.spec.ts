import { expect, test } from "@playwright/test";
import { layoutProblems } from "./layout-checks";

/**
 * /fair's payout times (issue 34, item 4): the section renders on desktop, on a phone and
 * without JavaScript, fits the screen, and shows figures or says there are none.
 * tests/integration/payout-times.test.ts checks the figures themselves.
 */
test("/fair shows payout times per method and the refusals, counts only", async ({ page }) => {
  const response = await page.goto("/fair");
  expect(response?.status()).toBe(200);
  const section = page.getByTestId("payout-times");
  await expect(section.getByRole("heading", { name: "Payout times" })).toBeVisible();
  await expect(section).toContainText("From our records of the last 30 days");
  await expect(section.getByRole("heading", { name: /^Refused: \d+$/ })).toBeVisible();
  const methods = section.getByTestId("payout-method");
  if ((await methods.count()) > 0) {
    await expect(section.getByRole("columnheader", { name: "95% within" })).toBeVisible();
    for (const row of await methods.all()) await expect(row.getByRole("cell")).toHaveCount(3);
  } else {
    await expect(section).toContainText("No withdrawal was paid out in the last 30 days.");
  }
  await section.scrollIntoViewIfNeeded();
  expect(await layoutProblems(page)).toEqual([]);
});

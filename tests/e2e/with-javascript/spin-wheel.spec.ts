import { expect, test } from "@playwright/test";
import { rotationOf } from "../../../app/shared/spin-wheel";
import { keepToasts, signUpWithUsername } from "../support";
import { PRIZES, underThePointer } from "../wheel-support";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

/**
 * After a spin, SPIN must not come back while the page's data is still being reloaded
 * (issue 20, defect 6): the reload is held here until the wheel has been checked. The spin
 * goes through a fetcher that follows the action's redirect (ADR 040), so the wheel stays
 * busy until the reloaded data says when the next spin is due, and the page never reloads.
 */
test("the wheel waits for the next spin as soon as the spin is done, with a labelled countdown", async ({ page }) => {
  await signUpWithUsername(page);
  await page.evaluate(() => ((window as unknown as { stillThisPage: boolean }).stillThisPage = true));
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  // Remix reloads loader data from *.data URLs (single fetch); the spin itself (a POST) goes through.
  await page.route(/\.data(\?|$)/, async (route) => {
    if (route.request().method() === "GET") await held;
    await route.continue().catch(() => {});
  });
  const spin = page.getByTestId("spin-button");
  await spin.click();
  await expect(spin).toHaveText("PROCESSING...");
  await expect(spin).toBeDisabled();
  release();
  await expect(page.getByTestId("toast")).toContainText(/You won (5|10|25|50) coins!/);
  await expect(spin).toHaveText(/^Next spin in (23:59:\d\d|24:00:00)$/);
  await expect(spin).toBeDisabled();
  expect(await page.evaluate(() => (window as unknown as { stillThisPage?: boolean }).stillThisPage)).toBe(true);
});

test("with reduced motion the wheel does not turn: it shows the reward", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await signUpWithUsername(page);
  const disc = page.getByTestId("wheel-disc");
  const standing = () => disc.evaluate((element) => ({ animations: element.getAnimations().length, transform: getComputedStyle(element).transform }));
  await page.getByTestId("spin-button").click();
  await expect(disc).toHaveAttribute("data-phase", "turning");
  // Its transform changes by whole turns only, with no transition: it stands where it was.
  const turning = await standing();
  expect(turning.animations).toBe(0);
  const at = rotationOf(turning.transform);
  expect(Math.min(at, 360 - at)).toBeLessThan(0.5);
  await expect(page.getByTestId("spin-button")).toHaveText(/^Next spin in /);
  await expect(disc).toHaveAttribute("data-phase", "rest");
  expect((await standing()).animations).toBe(0);
  const seen = await underThePointer(page);
  expect(seen.byAngle).toBe(seen.byPoint);
  expect(PRIZES).toContain(seen.byAngle);
  // Shown at once: no extra turns on its way there.
  expect(seen.inlineAngle).toBeLessThan(360);
});

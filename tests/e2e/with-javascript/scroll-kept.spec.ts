import { expect, test, type Page } from "@playwright/test";
import { gotoListening, hydratedIfJavaScript, signUpWithUsername } from "../support";

/**
 * Live pages reload their data on every pot change. The router noted the scroll position as
 * a reload began and scrolled back to it as it ended, so a player scrolling meanwhile was
 * pulled back (a stressed run of in-page-links.spec.ts caught it). Here one reload is held
 * until the player has scrolled, then let through.
 */
test("a player who scrolls while the page reloads stays where they scrolled", async ({ page }) => {
  await signUpWithUsername(page);
  await gotoListening(page, "/");
  await hydratedIfJavaScript(page);

  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const reloading = new Promise<void>((resolve) => (arrived = resolve));
  await page.route(/\.data(\?|$)/, async (route) => {
    arrived();
    await held;
    await route.continue();
  });

  await scrollTo(page, 200);
  await page.evaluate(() => (window as unknown as RouterWindow).__remixRouter.revalidate());
  await reloading;
  await scrollTo(page, 700);
  release();
  await expect.poll(() => page.evaluate(() => (window as unknown as RouterWindow).__remixRouter.state.revalidation)).toBe("idle");
  expect(await page.evaluate(() => window.scrollY)).toBe(700);
});

/** The router Remix puts on the window, as far as this test uses it. */
type RouterWindow = { __remixRouter: { revalidate(): void; state: { revalidation: string } } };

async function scrollTo(page: Page, y: number) {
  await page.evaluate((top) => window.scrollTo(0, top), y);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(y);
}

import { expect, test, type Page } from "@playwright/test";
import { DESKTOP_WIDTHS, layoutProblems, PHONE_WIDTHS, PLAYER_PAGES, playerTest, PUBLIC_PAGES } from "./layout-checks";
import { scaled } from "../support/timeouts";

/**
 * Every player page fits the screen and has targets a finger can hit (ADR 029): at 320,
 * 360 and 390 px in the mobile and no-JavaScript suites (their pages differ: the
 * no-JavaScript ones carry plain-form fallbacks), at 1280 px in the desktop suite.
 */
// Three widths a page, on a busy machine.
test.describe.configure({ timeout: scaled(60_000) });

async function checkPage(page: Page, path: string) {
  const problems: string[] = [];
  // Sizes at rest: a win celebrating mid-check would otherwise be measured half-grown.
  await page.emulateMedia({ reducedMotion: "reduce" });
  for (const width of test.info().project.name === "desktop" ? DESKTOP_WIDTHS : PHONE_WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    const response = await page.goto(path);
    expect(response?.status(), path).toBeLessThan(path === "/no-such-page" ? 500 : 400);
    for (const problem of await layoutProblems(page)) problems.push(`${width}px: ${problem}`);
  }
  expect(problems).toEqual([]);
}

for (const path of PUBLIC_PAGES) {
  test(`signed out, ${path} fits the screen, with targets big enough to tap`, async ({ page }) => {
    await checkPage(page, path);
  });
}

for (const path of PLAYER_PAGES) {
  playerTest(`a player's ${path} fits the screen, with targets big enough to tap`, async ({ page, playerPath }) => {
    await checkPage(page, playerPath(path));
  });
}

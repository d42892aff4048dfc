import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { PLAYER_PAGES, playerTest, PUBLIC_PAGES } from "../layout-checks";
import { enrolledAdmin } from "../support";
import { scaled } from "../../support/timeouts";

/**
 * Every page, signed out, as a player and as an admin, in both themes (the theme cookie
 * the settings set): an accessibility check (axe-core; WCAG 2.0, 2.1 and 2.2, A and AA)
 * that allows no serious or critical violation (ADR 029). Runs in the desktop and mobile
 * suites, so each page is scanned at both sizes.
 */
const ADMIN_PAGES = ["/admin/payouts", "/admin/users", "/admin/raffles", "/admin/complaints", "/admin/audit", "/admin/ledger"];
const THEMES = ["light", "dark"] as const;

// A scan of a page full of raffle cards takes seconds on a busy machine.
test.describe.configure({ timeout: scaled(60_000) });

async function setTheme(page: Page, baseURL: string, theme: "light" | "dark") {
  await page.context().addCookies([{ name: "theme", value: encodeURIComponent(btoa(JSON.stringify(theme))), url: baseURL }]);
}

async function expectAccessible(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  // A winner's reveal fades in: scan what it settles to, not a frame halfway through.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => null)),
    ),
  );
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    ),
  ).toEqual([]);
}

for (const theme of THEMES) {
  for (const path of PUBLIC_PAGES) {
    test(`signed out, ${path} in the ${theme} theme has no serious accessibility violation`, async ({ page, baseURL }) => {
      await setTheme(page, baseURL!, theme);
      await expectAccessible(page, path);
    });
  }

  for (const path of PLAYER_PAGES) {
    playerTest(`a player's ${path} in the ${theme} theme has no serious accessibility violation`, async ({ page, baseURL, playerPath }) => {
      await setTheme(page, baseURL!, theme);
      await expectAccessible(page, playerPath(path));
    });
  }

  for (const path of ADMIN_PAGES) {
    test(`the back office's ${path} in the ${theme} theme has no serious accessibility violation`, async ({ page, baseURL }) => {
      await setTheme(page, baseURL!, theme);
      await enrolledAdmin(page.request, baseURL!);
      await expectAccessible(page, path);
    });
  }
}

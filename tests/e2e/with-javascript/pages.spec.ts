import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { signInRequest } from "../support";

/**
 * Every page, signed out and signed in, in both themes: a screenshot kept as a test
 * artifact, and an accessibility check (axe-core) that allows no serious or critical
 * violation.
 */
const PUBLIC_PAGES = ["/", "/api/login", "/terms", "/privacy", "/admin-access", "/no-such-page"];
const PLAYER_PAGES = ["/", "/quick", "/vip", "/admin-access", "/settings"];

async function setTheme(page: Page, baseURL: string, theme: "light" | "dark") {
  await page.context().addCookies([{ name: "theme", value: encodeURIComponent(btoa(JSON.stringify(theme))), url: baseURL }]);
}

async function check(page: Page, path: string, name: string, theme: string) {
  await page.goto(path);
  await page.screenshot({ path: `tests/artifacts/screenshots/${test.info().project.name}/${name}-${theme}.png`, fullPage: true });
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`), `${path} (${theme})`).toEqual([]);
}

for (const theme of ["light", "dark"] as const) {
  test(`signed-out pages in the ${theme} theme`, async ({ page, baseURL }) => {
    await setTheme(page, baseURL!, theme);
    for (const path of PUBLIC_PAGES) await check(page, path, `public${path.replace(/[/?]/g, "_")}`, theme);
  });

  test(`signed-in pages in the ${theme} theme`, async ({ page, baseURL }) => {
    test.setTimeout(60_000);
    await setTheme(page, baseURL!, theme);
    await signInRequest(page.request, baseURL!, "player@demo.test", "demo-player-pass");
    for (const path of PLAYER_PAGES) await check(page, path, `player${path.replace(/[/?]/g, "_")}`, theme);
  });
}

import { expect, test } from "@playwright/test";
import { hydratedIfJavaScript, signUpWithUsername } from "./support";

/**
 * Issue 33, item 5: in-page links worked once per page load. On home, Buy Coins scrolled
 * down, then View Raffles left the player at the coin store; on a phone, Raffles then
 * Winners both left them at Biggest Pots. Each link lands on its section, every time.
 */
test("home's in-page links land on their sections, one after another", async ({ page }) => {
  await signUpWithUsername(page);
  await page.goto("/");
  // The links are the app's once hydrated; before, they are the browser's own jumps.
  await hydratedIfJavaScript(page);
  const hero = page.getByRole("region", { name: "Win half the pot" });
  const store = page.getByRole("heading", { name: "Coin Store" });
  const featured = page.getByRole("heading", { name: "Biggest Pots" });
  await hero.getByRole("link", { name: "Buy Coins" }).click();
  await expect(store).toBeInViewport();
  await page.evaluate(() => window.scrollTo(0, 0));
  await hero.getByRole("link", { name: "View Raffles" }).click();
  await expect(featured).toBeInViewport();
  await expect(store).not.toBeInViewport();
  await page.evaluate(() => window.scrollTo(0, 0));
  await hero.getByRole("link", { name: "Buy Coins" }).click();
  await expect(store).toBeInViewport();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the bottom bar's Raffles and Winners each land on their section", async ({ page }) => {
    await signUpWithUsername(page);
    const bar = page.getByRole("navigation", { name: "Mobile" });
    const featured = page.getByRole("heading", { name: "Biggest Pots" });
    const winners = page.getByRole("heading", { name: "Recent Winners" });
    await bar.getByRole("link", { name: "Raffles" }).click();
    await expect(featured).toBeInViewport();
    await bar.getByRole("link", { name: "Winners" }).click();
    await expect(winners).toBeInViewport();
    await expect(featured).not.toBeInViewport();
    await bar.getByRole("link", { name: "Raffles" }).click();
    await expect(featured).toBeInViewport();
  });

  test("from another page, Raffles and Winners land on home's sections, as data when hydrated", async ({ page, javaScriptEnabled }) => {
    await signUpWithUsername(page);
    const bar = page.getByRole("navigation", { name: "Mobile" });
    for (const [name, heading] of [
      ["Raffles", "Biggest Pots"],
      ["Winners", "Recent Winners"],
    ] as const) {
      await page.goto("/history");
      await hydratedIfJavaScript(page);
      // A mark on the window outlives the router's navigation and not a document load.
      await page.evaluate(() => Object.assign(window, { sameDocument: true }));
      await bar.getByRole("link", { name }).click();
      await expect(page).toHaveURL(/\/#/);
      await expect(page.getByRole("heading", { name: heading })).toBeInViewport();
      expect(await page.evaluate(() => "sameDocument" in window)).toBe(javaScriptEnabled);
    }
  });
});

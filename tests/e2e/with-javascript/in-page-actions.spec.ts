import { expect, test } from "@playwright/test";
import { grantWinnings, keepToasts, lastingRaffles, signUpWithUsername } from "../support";
import { ENDING_SOON_SECONDS } from "../../../app/shared/raffle-display";
import { scaled } from "../../support/timeouts";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

type Marked = { stillThisPage?: boolean };

/**
 * The pages' forms go through fetchers (ADR 040): the same action as without JavaScript,
 * answered with a redirect and a toast that the fetcher follows without loading the page; a
 * card's entry is answered with its data instead, and no loader runs again (ADR 093).
 */
test("an entry toasts and updates the balance without a page load, and Back still leaves the page", async ({ page }) => {
  await signUpWithUsername(page);
  await page.goto("/rules");
  await page.goto("/");
  await page.evaluate(() => ((window as Marked).stillThisPage = true));
  const card = page.locator('[data-testid="raffle-card"]', { hasText: "Enter $0.05" }).first();
  await card.getByRole("button", { name: "Enter $0.05" }).click();
  await expect(page.getByTestId("toast")).toContainText("Successfully entered micro raffle!");
  await expect(page.getByTestId("coin-balance")).toHaveText("995 coins");
  expect(await page.evaluate(() => (window as Marked).stillThisPage)).toBe(true);
  // The entry added no history entry: Back goes to the page before, not to / again.
  await page.goBack();
  await expect(page).toHaveURL(/\/rules$/);
});

test("a card's entry loads none of the page's data: its answer tells the coins, the split and every card of the raffle", async ({ page }) => {
  // The featured card's raffle may be about to end: then the test waits for the next one.
  test.setTimeout(scaled(120_000));
  await signUpWithUsername(page);
  // The cheapest raffle is among the biggest pots and in its tier's list: two cards of one
  // raffle. One whose button still says "Enter $0.05" when the test ends: in its last minute
  // it says QUICK ENTER, and a busy machine takes a while over the steps below.
  const seconds = ENDING_SOON_SECONDS + scaled(45_000) / 1000;
  let raffleId: string | undefined;
  await expect
    .poll(
      async () => {
        const lasting = await lastingRaffles(page.request, "0.05", seconds);
        await page.goto("/");
        const featuredIds = await page
          .locator('#featured [data-testid="raffle-card"]', { hasText: "Enter $0.05" })
          .evaluateAll((cards) => cards.map((card) => card.getAttribute("data-raffle-id")));
        raffleId = lasting.find((id) => featuredIds.includes(id));
        return raffleId;
      },
      { timeout: scaled(90_000) },
    )
    .toBeDefined();
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  // Any loader's data asked for from here on is held, never answered: what the page shows next
  // can only come from the entry's own answer.
  const held: string[] = [];
  await page.route(
    (url) => url.pathname.endsWith(".data"),
    (route) => (route.request().method() === "GET" ? void held.push(route.request().url()) : route.continue()),
  );
  const featured = page.locator(`#featured [data-raffle-id="${raffleId}"]`);
  const cards = page.locator(`[data-raffle-id="${raffleId}"]`);
  await expect(cards).toHaveCount(2);
  const answered = page.waitForResponse((response) => response.request().method() === "POST" && response.url().includes(`/raffles/${raffleId}/enter`));
  await featured.getByRole("button", { name: "Enter $0.05" }).click();
  expect((await answered).status()).toBe(200);
  await expect(page.getByTestId("toast")).toContainText("Successfully entered micro raffle!");
  await expect(page.getByTestId("coin-balance")).toHaveText("995 coins");
  for (const card of await cards.all()) await expect(card.getByTestId("my-tickets")).toContainText("You have 1 of");
  await page.getByTestId("coin-balance").click();
  await expect(page.getByTestId("coin-split")).toContainText("Bonus (play only)995");
  await expect(featured.getByRole("button", { name: "Enter $0.05" })).toBeEnabled();
  expect(held).toEqual([]);
});

test("a player signed out meanwhile gets the spec's toast and the sign-in page", async ({ page, context }) => {
  await signUpWithUsername(page);
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await context.clearCookies();
  const card = page.locator('[data-testid="raffle-card"]', { hasText: "Enter $0.05" }).first();
  await card.getByRole("button", { name: "Enter $0.05" }).click();
  await expect(page).toHaveURL(/\/api\/login\?returnTo=%2F$/);
  await expect(page.getByTestId("toast")).toContainText("Unauthorized");
  await expect(page.getByTestId("toast")).toContainText("You are logged out. Logging in again...");
});

test("a reload of the page's data that set out before an entry does not bring back the coins from before it", async ({ page }) => {
  const { email } = await signUpWithUsername(page);
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  // The next load of the page's data is read by the server at once (the coins before the
  // entry) and reaches the page only when let go, after the entry's answer.
  let caught = false;
  let letGo: (() => Promise<void>) | undefined;
  await page.route(
    (url) => url.pathname.endsWith(".data"),
    async (route) => {
      if (route.request().method() !== "GET" || caught) return route.continue();
      caught = true;
      const response = await route.fetch();
      letGo = () => route.fulfill({ response });
    },
  );
  type Routed = { __remixRouter: { revalidate(): void; state: { revalidation: string } } };
  await page.evaluate(() => void (window as unknown as Routed).__remixRouter.revalidate());
  await expect.poll(() => letGo !== undefined).toBe(true);

  const card = page.locator('[data-testid="raffle-card"]', { hasText: "Enter $0.05" }).first();
  await card.getByRole("button", { name: "Enter $0.05" }).click();
  await expect(page.getByTestId("toast")).toContainText("Successfully entered micro raffle!");
  await expect(page.getByTestId("coin-balance")).toHaveText("995 coins");
  await letGo!();
  await expect.poll(() => page.evaluate(() => (window as unknown as Routed).__remixRouter.state.revalidation)).toBe("idle");
  await expect(page.getByTestId("coin-balance")).toHaveText("995 coins");
  // A load that sets out after the entry shows its coins, as any load does.
  await grantWinnings(email, 10);
  await page.evaluate(() => void (window as unknown as Routed).__remixRouter.revalidate());
  await expect(page.getByTestId("coin-balance")).toHaveText("1,005 coins");
});

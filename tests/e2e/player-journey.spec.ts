import { expect, test } from "@playwright/test";
import { keepToasts, signInRequest, signUpWithUsername } from "./support";
import { scaled } from "../support/timeouts";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

/**
 * The player's journey, in every project (desktop, mobile, JavaScript off): sign up,
 * username, balance and raffles, enter, spin, VIP bonus for members only, quick entry, a refused
 * entry, and a round that ends with its winner in Recent Winners.
 */
test("a new player plays through the site", async ({ page, browser, baseURL }) => {
  test.setTimeout(scaled(120_000));
  await signUpWithUsername(page);
  const balance = page.getByTestId("coin-balance");
  await expect(balance).toHaveText("1,000 coins");
  await expect(page.getByTestId("raffle-card").first()).toBeVisible();

  // Enter the cheapest open raffle.
  const card = page.locator('[data-testid="raffle-card"]', { hasText: "Enter $0.05" }).first();
  const raffleId = await card.getAttribute("data-raffle-id");
  await card.getByRole("button", { name: "Enter $0.05" }).click();
  await expect(page.getByTestId("toast")).toContainText("Successfully entered micro raffle!");
  await expect(balance).toHaveText("995 coins");
  await expect(page.locator(`[data-raffle-id="${raffleId}"] [data-testid="my-tickets"]`).first()).toContainText("You have 1 of");

  // Spin the wheel.
  await page.getByTestId("spin-button").click();
  await expect(page.getByTestId("toast")).toContainText(/You won (5|10|25|50) coins!/);
  await expect(page.getByTestId("spin-button")).toBeDisabled();

  // A refused entry: HIGH STAKES costs more than the balance. In a round's last minute its
  // button reads QUICK ENTER (and without JavaScript the page does not change by itself).
  const elite = page.getByRole("article", { name: "HIGH STAKES raffle, $25.00 entry" }).filter({ hasNotText: "VIP" }).first();
  await elite.getByRole("button", { name: /^(Enter \$25\.00|QUICK ENTER)$/ }).click();
  await expect(page.getByTestId("toast")).toContainText("Insufficient Coins");

  // The VIP bonus needs VIP: a player without it is told so, not offered a button that fails.
  await page.goto("/vip");
  await expect(page.getByTestId("vip-tier")).toHaveText(/^No VIP membership/);
  await expect(page.getByRole("button", { name: "Claim Daily Bonus" })).toBeDisabled();
  await expect(page.getByTestId("daily-bonus-members-only")).toContainText("The daily bonus is for active VIP members.");

  // A quick round with a second player, so that it is drawn, not cancelled. The second signs
  // in first, and the round has time left for the page and both entries on a slow machine.
  const other = await browser.newContext({ baseURL });
  await signInRequest(other.request, baseURL!, "player@demo.test", "demo-player-pass");
  let round: { id: string; timeRemaining: number } | undefined;
  await expect
    .poll(
      async () => {
        const rounds = (await (await page.request.get("/api/quick-raffles")).json()) as { id: string; timeRemaining: number; entryPrice: string }[];
        round = rounds.find((r) => r.entryPrice === "0.05" && r.timeRemaining >= 15);
        return Boolean(round);
      },
      { timeout: scaled(40_000), intervals: [1000] },
    )
    .toBe(true);
  await page.goto("/quick");
  const quickCard = page.locator(`[data-raffle-id="${round!.id}"]`);
  await quickCard.getByRole("button", { name: "Enter $0.05" }).click();
  await expect(page.getByTestId("toast")).toContainText("Quick Entry!");

  const entered = await other.request.post(`/api/quick-raffles/${round!.id}/enter`, {
    headers: { Origin: baseURL!, Accept: "application/json" },
  });
  expect(entered.status()).toBe(200);
  await other.close();

  // The round ends on the server's clock and the scheduler draws it.
  await expect
    .poll(
      async () => {
        await page.goto("/");
        return page.locator(`[data-testid="recent-winner"] a[href="/fair/${round!.id}"]`).count();
      },
      { timeout: scaled(60_000), intervals: [2000] },
    )
    .toBe(1);
});

import { expect, test } from "@playwright/test";
import { keepToasts, signInRequest, signUpWithUsername } from "./support";
import { scaled } from "../support/timeouts";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

/**
 * What the raffle cards tell a player (issue 20, defect 6), in every project: what they
 * would win now once they are in a round, and that a VIP-only raffle is not for them.
 */
test("a player in a quick round with another player is told what they would win now", async ({ page, browser, baseURL }) => {
  test.setTimeout(scaled(90_000));
  await signUpWithUsername(page);
  const other = await browser.newContext({ baseURL });
  await signInRequest(other.request, baseURL!, "player@demo.test", "demo-player-pass");
  const headers = { Origin: baseURL!, Accept: "application/json" };
  // A 30-second round may end while the player enters: then the next one.
  await expect(async () => {
    const rounds = (await (await page.request.get("/api/quick-raffles")).json()) as {
      id: string;
      timeRemaining: number;
      entryPrice: string;
      participantCount: number;
    }[];
    const round = rounds.find((r) => r.entryPrice === "0.05" && r.participantCount === 0 && r.timeRemaining >= 12);
    expect(round).toBeDefined();
    expect((await other.request.post(`/api/quick-raffles/${round!.id}/enter`, { headers })).status()).toBe(200);
    await page.goto("/quick");
    const card = page.locator(`[data-raffle-id="${round!.id}"]`);
    // Not in it yet: with their ticket the pot would be $0.10, half of it $0.05.
    await expect(card.getByTestId("could-win")).toHaveText("$0.05");
    await card.getByRole("button", { name: "Enter $0.05" }).click();
    await expect(page.getByTestId("toast")).toContainText("Quick Entry!", { timeout: scaled(5_000) });
    // In it, with another player: drawn now, the pot of $0.10 pays half, not "half the pot plus half a ticket" ($0.07).
    await expect(card.getByText("You would win now")).toBeVisible({ timeout: scaled(5_000) });
    await expect(card.getByTestId("could-win")).toHaveText("$0.05");
  }).toPass({ timeout: scaled(60_000) });
  await other.close();
});

test("a VIP-only raffle says it is for members, and the server refuses a non-member", async ({ page }) => {
  test.setTimeout(scaled(60_000));
  await signUpWithUsername(page);
  const card = page.getByRole("article", { name: "HIGH STAKES raffle, $25.00 entry" }).filter({ hasText: "VIP members only" }).first();
  await expect(card.getByRole("button", { name: "VIP members only" })).toBeDisabled();
  await expect(card.getByTestId("vip-only")).toHaveText("This raffle is for active VIP members. See VIP tiers");
  await expect(card.getByRole("button", { name: /^Enter|QUICK ENTER/ })).toHaveCount(0);
  const raffleId = await card.getAttribute("data-raffle-id");
  const refused = await page.request.post(`/api/raffles/${raffleId}/enter`, { headers: { Origin: new URL(page.url()).origin, Accept: "application/json" } });
  expect(refused.status()).toBe(403);
});

import { expect, test } from "@playwright/test";
import { openQuickRound, signUpWithUsername } from "../support";
import { scaled } from "../../support/timeouts";

/**
 * Issue 20, defect 2: winners are told. Two players in one quick round, each on the quick
 * page: when the round ends its card shows "Drawing Winner...", then the winner on the card
 * while the next round opens beside it, and the winner's page celebrates ("Congratulations!
 * You won {n} coins!") without a reload; the other player's does not.
 */
/** A quick round's price that no other test plays in this project (the players must be these two). */
const PRICE: Record<string, string> = { desktop: "0.25", mobile: "2.00" };

test("a drawn round shows DRAWING, then its winner beside the next round, and the winner is congratulated live", async ({ browser, baseURL }) => {
  // Two sign-ups and up to two 30-second rounds.
  test.setTimeout(scaled(180_000));
  const [first, second] = await Promise.all([browser.newContext({ baseURL }), browser.newContext({ baseURL })]);
  const pages = [await first.newPage(), await second.newPage()];
  const names = [(await signUpWithUsername(pages[0]!)).username, (await signUpWithUsername(pages[1]!)).username];

  const price = PRICE[test.info().project.name]!;
  // Two tickets at `price`: the winner takes half the pot, one entry's price.
  const prize = price.replace(".", "\\.");
  const coins = Math.round(Number(price) * 100);
  // Both pages open first (the round's card comes to them live), then both players enter at once.
  await Promise.all(
    pages.map(async (page) => {
      await page.goto("/quick");
      await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    }),
  );
  const id = await openQuickRound(pages[0]!.request, price, 15);
  await Promise.all(
    pages.map(async (page) => {
      const card = page.locator(`[data-raffle-id="${id}"]`);
      await card.getByRole("button", { name: `Enter $${price}` }).click();
      await expect(card.getByTestId("my-tickets")).toContainText("You have 1 of");
    }),
  );

  // No reload from here on: the scheduler draws the round and the pages hear of it. The
  // winner's celebration shows for 5 s: watched for from now on, on both pages.
  const celebrated = Promise.race(
    pages.map(async (page, index) => {
      const overlay = page.getByTestId("win-celebration");
      await overlay.waitFor({ state: "visible", timeout: scaled(60_000) });
      // Read at once: the overlay closes itself after 5 s.
      const seen = await overlay.evaluate((el) => ({ text: (el as HTMLElement).innerText, confetti: el.querySelectorAll('[data-testid="confetti"]').length }));
      return { index, ...seen };
    }),
  );
  const card = pages[0]!.locator(`[data-raffle-id="${id}"]`);
  await expect(card.getByTestId("countdown")).toHaveText("Drawing Winner...", { timeout: scaled(40_000) });
  const result = card.getByTestId("card-result");
  await expect(result).toHaveText(new RegExp(`^(You won \\$${prize}!|(${names[0]}|${names[1]}) won \\$${prize})$`), { timeout: scaled(10_000) });
  // The next round at this price is open beside the drawn one, while the winner shows.
  await expect(pages[0]!.locator(`[id="price-${price}"] [data-testid="raffle-card"][data-phase="open"]`).first()).toBeVisible();
  await expect(result).toBeVisible();

  const text = await result.innerText();
  const winner = text.includes("You won") ? 0 : text.includes(names[0]!) ? 0 : 1;
  const celebration = await celebrated;
  expect(celebration.index).toBe(winner);
  expect(celebration.text).toContain(`Congratulations! You won ${coins} coins!`);
  expect(celebration.text).toContain("You won the");
  expect(celebration.confetti).toBe(20);
  await expect(pages[winner]!.locator(`[data-raffle-id="${id}"] [data-testid="card-result"]`)).toHaveText(`You won $${price}!`);
  await expect(pages[1 - winner]!.getByTestId("win-celebration")).toHaveCount(0);
  // The drawn card leaves after a few seconds; the next round stays.
  await expect(card).toHaveCount(0);
  await Promise.all([first.close(), second.close()]);
});

import { expect, test } from "@playwright/test";
import { hydratedIfJavaScript, signUpWithUsername } from "./support";

/**
 * Issue 33 item 2: the featured row ("Biggest Pots") snaps to a card, scrolls from the keyboard
 * with or without JavaScript, and with JavaScript has arrows that move it a card at a time.
 */
test("the biggest pots scroll by arrows, by keyboard, and snap to a card", async ({ page }) => {
  await signUpWithUsername(page);
  await page.goto("/");
  const javascript = await hydratedIfJavaScript(page);
  const row = page.getByRole("region", { name: "Biggest pots", exact: true });
  await expect(row.getByTestId("raffle-card").first()).toBeVisible();
  expect(await row.evaluate((el) => getComputedStyle(el).scrollSnapType)).toBe("x mandatory");
  const scrolled = () => row.evaluate((el) => el.scrollLeft);
  const overflows = await row.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
  expect(overflows, "ten featured raffles overflow the row").toBe(true);

  await row.focus();
  await page.keyboard.press("ArrowRight");
  await expect.poll(scrolled).toBeGreaterThan(0);
  // Back to the start, again until it stays there: the key's smooth scroll may still be settling.
  await expect
    .poll(async () => {
      const left = await scrolled();
      if (left !== 0) await row.evaluate((el) => el.scrollTo({ left: 0, behavior: "instant" }));
      return left;
    })
    .toBe(0);

  const arrows = page.getByTestId("carousel-arrows");
  if (!javascript) {
    await expect(arrows).toHaveCount(0);
    return;
  }
  const previous = arrows.getByRole("button", { name: "Previous" });
  const next = arrows.getByRole("button", { name: "Next" });
  await expect(previous).toBeDisabled();
  await next.click();
  await expect.poll(scrolled).toBeGreaterThan(100);
  await expect(previous).toBeEnabled();
  // It rests on a card's edge: the snap holds after the arrow's scroll.
  const cardEdge = () =>
    row.evaluate((el) => {
      const first = [...el.children].find((c) => c.getBoundingClientRect().right > el.getBoundingClientRect().left + 2)!;
      return Math.round(first.getBoundingClientRect().left - el.getBoundingClientRect().left);
    });
  await expect.poll(cardEdge).toBe(0);
  await previous.click();
  await expect.poll(scrolled).toBe(0);
  await expect(previous).toBeDisabled();
});

/** Issue 33 item 2: the coin store's cards line up, each with its cash and bonus. */
test("the coin store's cards are one height, their prices and buttons in line", async ({ page }) => {
  await signUpWithUsername(page);
  await page.goto("/");
  const cards = page.locator("#coin-store").getByTestId("coin-package");
  await expect(cards).toHaveCount(4);
  await expect(cards.last().getByTestId("coin-mix")).toHaveText("2,499 cash to withdraw2,501 bonus to play");
  const boxes = await cards.evaluateAll((items) =>
    items.map((item) => ({
      top: Math.round(item.getBoundingClientRect().top),
      height: Math.round(item.getBoundingClientRect().height),
      button: Math.round(item.querySelector("a")!.getBoundingClientRect().top),
    })),
  );
  // Two rows of two on a phone, one row of four on a desktop: within a row, all the same.
  for (const row of new Set(boxes.map((b) => b.top))) {
    const inRow = boxes.filter((b) => b.top === row);
    expect(new Set(inRow.map((b) => b.height)).size, JSON.stringify(inRow)).toBe(1);
    expect(new Set(inRow.map((b) => b.button)).size, JSON.stringify(inRow)).toBe(1);
  }
});

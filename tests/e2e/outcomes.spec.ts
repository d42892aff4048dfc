import { expect, test, type Page } from "@playwright/test";
import { adminRequest, grantWinnings, hydratedIfJavaScript, keepToasts, openQuickRound, signUpWithUsername, verifyEmailOf } from "./support";
import { scaled } from "../support/timeouts";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

/**
 * Issue 20, defect 2 (PRODUCT.md, "Telling players what happened"), in every project: a
 * cancelled raffle's refund and each new state of a withdrawal reach the player: with
 * JavaScript on the page they have open, without it on their next page.
 */
/** Whether the suite runs JavaScript, once the page is hydrated (asked at once, a slow page would look like one without). */
const hydrated = (page: Page) => hydratedIfJavaScript(page);

/** Waits for a toast with `text`: live on the open page with JavaScript, on the next page without it. */
async function toastSays(page: Page, text: string | RegExp, timeout = 60_000) {
  if (await hydrated(page)) {
    await expect(page.getByTestId("toast")).toContainText(text, { timeout });
    return;
  }
  await expect
    .poll(
      async () => {
        await page.goto("/history");
        return (await page.getByTestId("toast").allInnerTexts()).join(" ");
      },
      { timeout, intervals: [2000] },
    )
    .toMatch(text);
}

/** A quick round's price that no other test plays in this project, so that the player is alone in it. */
const LONE_PRICE: Record<string, string> = { desktop: "0.10", mobile: "0.50", "no-javascript": "1.00" };

test("a player alone in a round is told it was cancelled and refunded", async ({ page }) => {
  test.setTimeout(scaled(90_000));
  await signUpWithUsername(page);
  const price = LONE_PRICE[test.info().project.name]!;
  // Time left for the page to load and the entry to land on a slow machine (entries close in the last second).
  const id = await openQuickRound(page.request, price, 12);
  await page.goto("/quick");
  await page
    .locator(`[data-raffle-id="${id}"]`)
    .getByRole("button", { name: `Enter $${price}` })
    .click();
  await expect(page.getByTestId("toast")).toContainText("Quick Entry!");
  const paid = Math.round(Number(price) * 100);
  await expect(page.getByTestId("coin-balance")).toHaveText(`${1000 - paid} coins`);
  // With JavaScript, the page stays open and the news comes to it (after the entry's toast).
  if (await hydrated(page)) {
    await page.getByTestId("toast").getByRole("button", { name: "Close" }).click();
    // Its card says what came of it (issue 33: it read "Drawn"), for the few seconds it stays.
    const card = page.locator(`[data-raffle-id="${id}"]`);
    await expect(card.getByTestId("card-result")).toContainText("Every ticket was refunded", { timeout: scaled(60_000) });
    await expect(card.getByTestId("countdown")).toHaveText("Cancelled");
  }

  await toastSays(page, /Raffle Cancelled/);
  await expect(page.getByTestId("toast")).toContainText(
    new RegExp(`Fewer than two players joined the [A-Z]+ quick round: your 1 ticket was refunded \\(${paid} coins\\)\\.`),
  );
  await expect(page.getByTestId("coin-balance")).toHaveText("1,000 coins");
  // Told once.
  await page.goto("/history");
  await expect(page.getByTestId("toast")).toHaveCount(0);
});

test("each new state of a withdrawal reaches the player: processing, then completed", async ({ page, baseURL, playwright }) => {
  test.setTimeout(scaled(90_000));
  const { email } = await signUpWithUsername(page);
  // Winnings (not card money): the whole withdrawal is one transfer, which an admin completes by hand.
  // $60 keeps it out of the back office's bulk approval (up to $50) that other tests run.
  await grantWinnings(email, 6000);
  await verifyEmailOf(email);
  const requested = await page.request.post("/api/withdraw", {
    data: { amount: 60, method: "venmo", accountInfo: "lucky-lou" },
    headers: { Origin: baseURL!, Accept: "application/json" },
  });
  expect(requested.status()).toBe(200);
  const { id } = (await requested.json()) as { id: string };
  await page.goto("/withdraw");
  await expect(page.getByTestId("withdrawal").first()).toContainText("pending");

  const admin = await adminRequest(playwright, baseURL!);
  expect((await admin.post(`/api/admin/payouts/${id}/approve`, { headers: { Accept: "application/json" } })).status()).toBe(200);
  await toastSays(page, "Withdrawal Processing");
  await expect(page.getByTestId("toast")).toContainText("Your $60.00 withdrawal was approved and is being sent.");

  const sent = await admin.post(`/api/admin/payouts/${id}/transfer`, {
    data: { reference: `VENMO-${id.slice(0, 8)}` },
    headers: { Accept: "application/json" },
  });
  expect(sent.status()).toBe(200);
  await admin.dispose();
  await toastSays(page, "Withdrawal Completed");
  await expect(page.getByTestId("toast")).toContainText("$60.00 has been sent.");
});

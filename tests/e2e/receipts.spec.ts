import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { hydratedIfJavaScript, signInRequest, signUpWithUsername } from "./support";
import { layoutProblems } from "./layout-checks";
import { scaled } from "../support/timeouts";

/**
 * A ticket's receipt (issue 34 item 2, ADR 079), on desktop, on a phone and without
 * JavaScript: turned on by email in the settings, reached from the history row, the
 * player's own only, downloaded by a plain link, and completed by the draw.
 */
test("a receipt from the history row: the ticket's facts, a plain download, another player's is 404, and the result after the draw", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(scaled(150_000));
  await signUpWithUsername(page);

  // Email receipts: off until the player turns them on, with or without JavaScript.
  await page.goto("/settings");
  const emailReceipts = page.getByRole("switch", { name: /Email receipts/ });
  await expect(emailReceipts).not.toBeChecked();
  await emailReceipts.check();
  if (!(await hydratedIfJavaScript(page))) await page.getByRole("button", { name: "Save settings" }).click();
  await expect.poll(async () => ((await (await page.request.get("/api/settings")).json()) as { emailEntryReceipts: boolean }).emailEntryReceipts).toBe(true);

  // The player and the demo player enter a quick round, which the scheduler draws at its end.
  const demo = await browser.newContext({ baseURL });
  await signInRequest(demo.request, baseURL!, "player@demo.test", "demo-player-pass");
  const headers = { Origin: baseURL!, Accept: "application/json" };
  let raffleId = "";
  await expect(async () => {
    const rounds = (await (await page.request.get("/api/quick-raffles")).json()) as {
      id: string;
      timeRemaining: number;
      entryPrice: string;
      vipOnly: boolean;
    }[];
    const round = rounds.filter((r) => r.timeRemaining >= 10 && !r.vipOnly).sort((a, b) => Number(a.entryPrice) - Number(b.entryPrice))[0];
    expect(round).toBeDefined();
    expect((await page.request.post(`/api/quick-raffles/${round!.id}/enter`, { headers })).status()).toBe(200);
    expect((await demo.request.post(`/api/quick-raffles/${round!.id}/enter`, { headers })).status()).toBe(200);
    raffleId = round!.id;
  }).toPass({ timeout: scaled(45_000) });

  await page.goto("/history?type=entries");
  const row = page.getByTestId("history-row").filter({ has: page.locator(`a[href="/fair/${raffleId}"]`) });
  await row.getByTestId("history-receipt").click();
  await expect(page).toHaveURL(/\/receipts\/[0-9a-f-]{36}$/);
  const receiptUrl = new URL(page.url()).pathname;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Receipt: ticket #\d+$/);
  await expect(page.getByTestId("receipt-raffle")).toHaveText(raffleId);
  await expect(page.getByTestId("receipt-paid")).toHaveText(/^\d+ coins: \d+ cash \+ \d+ bonus$/);
  await expect(page.getByTestId("receipt-seed-hash")).toHaveText(/^[0-9a-f]{64}$/);
  await expect(page.getByTestId("receipt-list")).toContainText("Merkle root");
  expect(await layoutProblems(page)).toEqual([]);

  // The download is a plain link: it works with JavaScript off too.
  const downloading = page.waitForEvent("download");
  await page.getByTestId("receipt-download").click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^receipt-[0-9a-f-]{36}\.json$/);
  const receipt = JSON.parse(readFileSync((await download.path())!, "utf8")) as { raffle: { id: string }; signature: { algorithm: string } };
  expect(receipt.raffle.id).toBe(raffleId);
  expect(receipt.signature.algorithm).toBe("Ed25519");

  // Another player's receipt does not exist for them.
  const theirs = await demo.newPage();
  expect((await theirs.goto(receiptUrl))?.status()).toBe(404);
  await expect(theirs.getByRole("heading", { name: "Receipt not found" })).toBeVisible();
  expect((await demo.request.get(`${receiptUrl}/receipt.json`)).status()).toBe(404);
  await demo.close();

  // After the draw the same receipt shows the result, the winning ticket and the way to check it.
  await expect(async () => {
    await page.goto(receiptUrl);
    await expect(page.getByTestId("receipt-status")).toHaveText("Drawn", { timeout: 1_000 });
  }).toPass({ timeout: scaled(60_000) });
  await expect(page.getByTestId("receipt-result")).toHaveText(/^(You won \d[\d,]* coins\.|Not a winner this time: the winning ticket was #\d+\.)$/);
  await expect(page.getByTestId("receipt-winning-ticket")).toHaveText(/^#\d+$/);
  expect(await layoutProblems(page)).toEqual([]);
  await page.getByTestId("receipt-check-link").click();
  await expect(page).toHaveURL(new RegExp(`/fair/${raffleId}#check-title$`));
  await expect(page.getByTestId("verification-result")).toContainText(
    (await hydratedIfJavaScript(page)) ? /Verified in your browser/ : "Your browser has not checked this draw (JavaScript is off).",
  );
});

import { expect, test } from "@playwright/test";
import { enrolledAdmin, hydratedIfJavaScript, keepToasts, lastingRaffle, signInRequest, signUpWithUsername, unusedTotpCode } from "./support";
import { scaled } from "../support/timeouts";

// Toasts are read here: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

/**
 * Complaints end to end (docs/decisions/081-complaints.md), in every suite (desktop, phone,
 * no JavaScript): a player files one from the row of their history concerned (the form
 * filled in), finds it received on "My complaints" (linked from Settings); an admin answers
 * it from the back office's queue; the player reads the answer.
 */
test("a complaint is filed from history, answered in the back office and read by the player", async ({ page, browser, baseURL }) => {
  test.setTimeout(scaled(120_000));
  await signUpWithUsername(page);
  const headers = { Origin: baseURL!, Accept: "application/json" };
  const raffleId = await lastingRaffle(page.request);
  expect((await page.request.post(`/api/raffles/${raffleId}/enter`, { headers })).status()).toBe(200);

  // From the entry's row in the history: the form knows the draw.
  await page.goto("/history");
  await page.getByTestId("history-row").filter({ hasText: "Raffle entry" }).first().getByRole("link", { name: "complain" }).click();
  await expect(page.getByRole("heading", { name: "File a complaint" })).toBeVisible();
  await expect(page.getByLabel("What is it about?")).toHaveValue("draw");
  await expect(page.getByLabel("Raffle or withdrawal ID (optional)")).toHaveValue(raffleId);
  await hydratedIfJavaScript(page);
  // Too short: refused, with the reason beside the field, and nothing filed.
  const message = page.getByLabel("What went wrong?");
  await message.fill("Bad");
  await page.getByRole("button", { name: "Send complaint" }).click();
  await expect(page.getByText("Say what went wrong (10 characters or more)")).toBeVisible();
  const words = `My ticket in this draw was not counted (${Date.now()}).`;
  await message.fill(words);
  await page.getByRole("button", { name: "Send complaint" }).click();
  await expect(page).toHaveURL(/\/complaints$/);
  await expect(page.getByTestId("toast")).toContainText("Complaint received");
  const mine = page.getByTestId("complaint").filter({ hasText: words });
  await expect(mine.getByTestId("complaint-state")).toHaveText("Received");

  // Settings lead to the same page.
  await page.goto("/settings");
  await page.getByRole("link", { name: "My complaints" }).click();
  await expect(page.getByRole("heading", { name: "My complaints" })).toBeVisible();

  // An admin of this test's own, in a browser like the player's (size and JavaScript).
  const enrolling = await browser.newContext({ baseURL });
  const admin = await enrolledAdmin(enrolling.request, baseURL!);
  await enrolling.close();
  const { viewport, userAgent, isMobile, hasTouch, deviceScaleFactor, javaScriptEnabled } = test.info().project.use;
  const context = await browser.newContext({ baseURL, viewport, userAgent, isMobile, hasTouch, deviceScaleFactor, javaScriptEnabled });
  const office = await context.newPage();
  await keepToasts(office);
  await signInRequest(office.request, baseURL!, admin.email, admin.password);
  await office.goto("/admin/complaints");
  await expect(office).toHaveURL(/\/admin-access$/);
  await office.getByLabel("Authentication code").fill(await unusedTotpCode(admin.email, admin.secret));
  await office.getByRole("button", { name: "Access Dashboard" }).click();
  await expect(office.getByRole("heading", { name: "Admin dashboard" })).toBeVisible();
  await office.goto("/admin/complaints");
  await hydratedIfJavaScript(office);
  const row = office.getByTestId("complaint-row").filter({ hasText: words });
  await expect(row).toContainText("A draw");
  await expect(row).toContainText("0 d");
  const answer = "We checked the draw: your ticket was counted, and the draw is fair.";
  await row.getByLabel("Answer the player reads").fill(answer);
  await row.getByRole("button", { name: "Send answer" }).click();
  await expect(office.getByTestId("toast")).toContainText("Complaint answered");
  await expect(office.getByTestId("complaint-row").filter({ hasText: words })).toContainText("Answered");
  await context.close();

  await page.goto("/complaints");
  await expect(mine.getByTestId("complaint-state")).toHaveText("Answered");
  await expect(mine.getByTestId("complaint-answer")).toContainText(answer);
});

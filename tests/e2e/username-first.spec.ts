import { expect, test } from "@playwright/test";
import { hydratedIfJavaScript, keepToasts, lastingRaffle, openQuickRound, signUpRequest, unique } from "./support";
import { scaled } from "../support/timeouts";

test.beforeEach(({ page }) => keepToasts(page));

/**
 * Issue 33, item 5: without JavaScript a new account entered a raffle before choosing a
 * username (the dialog cannot stop a plain form). The spec has a player choose one first: an
 * entry without one leads to the username page and back, entering nothing; the API refuses it.
 */
test("an entry without a username asks for one first, enters nothing, then comes back", async ({ page, baseURL }) => {
  test.setTimeout(scaled(60_000));
  const headers = { Origin: baseURL!, Accept: "application/json" };
  await signUpRequest(page.request, baseURL!, `first-${unique()}@example.com`);

  // The API: a clear 403 with the reason, for regular and quick raffles alike.
  const raffleId = await lastingRaffle(page.request);
  for (const path of [`/api/raffles/${raffleId}/enter`, `/api/quick-raffles/${await openQuickRound(page.request)}/enter`]) {
    const refused = await page.request.post(path, { headers });
    expect(refused.status(), path).toBe(403);
    expect(await refused.json(), path).toEqual({ message: "Choose a username before you play: other players see it when you win." });
  }

  await page.goto("/");
  const card = page.locator(`[data-raffle-id="${raffleId}"]`).first();
  if (await hydratedIfJavaScript(page)) {
    // With JavaScript the dialog is modal: the card cannot be reached; its form's post is sent as the browser would.
    const posted = await page.request.post(`/raffles/${raffleId}/enter`, { headers: { Origin: baseURL!, Referer: `${baseURL}/` }, maxRedirects: 0 });
    expect(posted.headers().location).toBe("/account/username?returnTo=%2F");
    await page.goto(posted.headers().location!);
  } else {
    // Without it the dialog is open but not modal: the card's Enter can still be sent.
    await card.getByRole("button", { name: /^Enter/ }).press("Enter");
  }
  await expect(page).toHaveURL(/\/account\/username\?returnTo=%2F$/);
  await expect(page.getByRole("heading", { name: "Choose your username", level: 1 })).toBeVisible();
  await expect(page.getByText("Choose a username before you play")).toBeVisible();
  await page.getByRole("main").getByLabel("Username").fill(`f_${unique()}`.slice(0, 20));
  await page.getByRole("main").getByRole("button", { name: "Create Username" }).click();

  // Back where the player was, with nothing entered: the welcome coins are all there.
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.getByTestId("toast")).toContainText("Username Created!");
  await expect(page.getByTestId("coin-balance")).toHaveText("1,000 coins");
  await expect(page.getByRole("dialog", { name: "Choose your username" })).toHaveCount(0);
  const history = await (await page.request.get("/history")).text();
  expect(history).not.toContain(raffleId);

  // Now the entry goes through.
  await hydratedIfJavaScript(page);
  await card.getByRole("button", { name: /^Enter/ }).click();
  await expect(page.getByTestId("toast")).toContainText("Success!");
});

import { expect, test } from "@playwright/test";
import { drawnEarly } from "./fair-support";
import { scaled } from "../support/timeouts";

/**
 * Fair draws on the site (issue 20, defect 7): /fair explains the algorithm, lists and finds
 * draws; /fair/<id> checks the draw in the browser (draw-verifier.mjs, from the public JSON), says
 * when it does not add up, and without JavaScript still shows the record, the JSON and how
 * to check it. Times are the player's own, UTC in the tooltip (defect 6). A record changed
 * in transit: with-javascript/fair-tampered.spec.ts.
 */
test.describe.configure({ mode: "serial" });

let raffleId: string;
test.beforeAll(async ({ browser, baseURL }) => {
  test.setTimeout(scaled(60_000));
  raffleId = await drawnEarly(browser, baseURL!);
});

test("/fair explains the draw, lists recent draws and finds one by id, with a plain form", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Fair draws" }).click();
  await expect(page).toHaveURL(/\/fair$/);
  const response = await page.goto("/fair");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "How every draw is made" })).toBeVisible();
  await expect(page.getByTestId("recent-draw").first()).toBeVisible();

  const bad = await page.goto("/fair?q=not-an-id");
  expect(bad?.status()).toBe(400);
  await expect(page.getByRole("alert")).toContainText("Enter a raffle id");
  const unknown = await page.goto("/fair?q=00000000-0000-4000-8000-000000000000");
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole("alert")).toContainText("No raffle has the id 00000000-0000-4000-8000-000000000000");

  await page.getByLabel("Raffle id").fill(` ${raffleId.toUpperCase()} `);
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page).toHaveURL(new RegExp(`/fair/${raffleId}$`));
  await expect(page.getByRole("heading", { name: /^Fair draw/ })).toBeVisible();
});

test("a draw page checks the draw in the browser, or says how to without JavaScript", async ({ page, javaScriptEnabled }) => {
  await page.goto(`/fair/${raffleId}`);
  const result = page.getByTestId("verification-result");
  if (javaScriptEnabled) {
    await expect(result).toContainText(/Verified in your browser: ticket #\d+ won, as published\./);
    await expect(result).toContainText("SHA-256(seed) equals the seed hash published at the start");
  } else {
    await expect(result).toContainText("Your browser has not checked this draw (JavaScript is off).");
  }
  // The public JSON and the verifier are offered in either case.
  const href = await page.getByRole("link", { name: "public JSON" }).first().getAttribute("href");
  const json = await page.request.get(href!);
  expect(await json.json()).toMatchObject({ raffleId, status: "completed", revealed: true });
  await page.getByText("The verifier’s code").click();
  await expect(page.getByTestId("verifier-source")).toContainText("export async function verifyDraw(draw)");
  const file = await page.request.get("/fair/draw-verifier.mjs");
  expect(file.headers()["content-type"]).toContain("text/javascript");
  expect(await file.text()).toContain("export async function verifyDraw(draw)");
});

test("an unknown draw's page says so in its own terms, with a 404 and the way back to the list", async ({ page }) => {
  for (const id of ["not-a-raffle-id", "00000000-0000-4000-8000-000000000000"]) {
    const response = await page.goto(`/fair/${id}`);
    expect(response?.status()).toBe(404);
    // The page's own ErrorBoundary (issue 22), not the site-wide not-found page.
    await expect(page.getByRole("heading", { name: "Draw not found" })).toBeVisible();
    await expect(page.getByText("No raffle has that id.")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Page Not Found" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Back to fair draws" })).toHaveAttribute("href", "/fair");
    await expect(page.getByRole("link", { name: "Back to the home page" })).toHaveAttribute("href", "/");
  }
  await page.getByRole("link", { name: "Back to fair draws" }).click();
  await expect(page.getByRole("heading", { name: "Fair draws" })).toBeVisible();
});

test.describe("times", () => {
  test.use({ timezoneId: "America/New_York", locale: "en-US" });

  test("an early-completed raffle shows when it was drawn and its scheduled end, in the player's time zone", async ({ page, javaScriptEnabled }) => {
    await page.goto(`/fair/${raffleId}`);
    await expect(page.getByText("Drawn early: an admin completed it before its scheduled end")).toBeVisible();
    const drawn = page.getByTestId("drawn-at");
    const scheduled = page.getByTestId("scheduled-end");
    const drawnAt = new Date((await drawn.getAttribute("datetime"))!);
    const endsAt = new Date((await scheduled.getAttribute("datetime"))!);
    expect(drawnAt.getTime()).toBeLessThan(endsAt.getTime());
    await expect(drawn).toHaveAttribute("title", `${drawnAt.toISOString().slice(0, 19).replace("T", " ")} UTC`);
    if (javaScriptEnabled) {
      const local = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "long", timeZone: "America/New_York" }).format(drawnAt);
      await expect(drawn).toHaveText(local);
      await expect(drawn).toContainText(/E[SD]T/);
    } else {
      // The server cannot know the player's zone: without JavaScript the time is UTC, and says so.
      await expect(drawn).toHaveText(`${drawnAt.toISOString().slice(0, 19).replace("T", " ")} UTC`);
    }
  });
});

import { expect, test, type Page } from "@playwright/test";
import { withClient } from "../support/test-database";
import { scaled } from "../support/timeouts";
import { e2eDatabaseUrl, hydratedIfJavaScript, keepToasts, signUpWithUsername } from "./support";
import { PRIZES, underThePointer } from "./wheel-support";

// The result is read from the toast in one of these tests: it lasts until read.
test.beforeEach(({ page }) => keepToasts(page));

/** Spins, and waits until the wheel is at rest with the reward said under it. */
async function spinAndWaitForRest(page: Page) {
  await page.getByTestId("spin-button").click();
  await expect(page.getByTestId("spin-button")).toHaveText(/^Next spin in /);
  await expect(page.getByTestId("wheel-disc")).toHaveAttribute("data-phase", "rest");
  await expect(page.getByTestId("wheel-result")).toBeVisible();
}

/**
 * The server picks the reward (node:crypto) and the browser cannot choose it; to see the wheel
 * stop on each of the four, the test rewrites the reward the server recorded, in the database,
 * after the spin was paid and before the page reads it back (as other tests make their data).
 */
for (const prize of PRIZES) {
  test(`the wheel stops on ${prize} when the server says ${prize} was won`, async ({ page }) => {
    // A sign-up, a spin (3 s, then a 4 s stop) and a reload: more than a loaded machine does in 30 s.
    test.setTimeout(scaled(90_000));
    const { email } = await signUpWithUsername(page);
    // The spin's answer is held until its reward is rewritten; the page reads it back after.
    await page.route(
      (url) => url.pathname.startsWith("/daily-spin"),
      async (route) => {
        if (route.request().method() !== "POST") return route.continue();
        const response = await route.fetch({ maxRedirects: 0 });
        await withClient(await e2eDatabaseUrl(), (client) =>
          client.query("UPDATE daily_spins SET reward = $2 WHERE user_id = (SELECT id FROM users WHERE email = $1)", [email, prize]),
        );
        await route.fulfill({ response });
      },
    );
    await spinAndWaitForRest(page);
    await expect(page.getByTestId("wheel-result")).toHaveText(`Last spin: ${prize} coins`);
    const seen = await underThePointer(page);
    expect(seen.byAngle).toBe(prize);
    expect(seen.byPoint).toBe(prize);
    // With JavaScript the wheel turned at least two more turns to get there; it did not snap.
    if (await hydratedIfJavaScript(page)) expect(seen.inlineAngle).toBeGreaterThanOrEqual(720);
    // It stays there when the page is opened again.
    await page.reload();
    expect(await underThePointer(page)).toMatchObject({ byAngle: prize, byPoint: prize });
  });
}

test("the wheel stops on the reward the toast announces, at full size on the screen", async ({ page }) => {
  test.setTimeout(scaled(90_000));
  await signUpWithUsername(page);
  await spinAndWaitForRest(page);
  const toast = page.getByTestId("toast").filter({ hasText: "You won" });
  const won = Number(/You won (\d+) coins!/.exec(await toast.innerText())?.[1]);
  expect(PRIZES).toContain(won);
  await expect(page.getByTestId("wheel-result")).toHaveText(`Last spin: ${won} coins`);
  expect(await underThePointer(page)).toMatchObject({ byAngle: won, byPoint: won });
  const wheel = (await page.getByTestId("wheel-disc").boundingBox())!;
  expect(wheel.width).toBeGreaterThanOrEqual(240);
  expect(wheel.x).toBeGreaterThanOrEqual(0);
  expect(wheel.x + wheel.width).toBeLessThanOrEqual(page.viewportSize()!.width);
});

import type { Server } from "node:http";
import { expect, test } from "@playwright/test";
import Provider from "oidc-provider";
import { runningDatabaseUrl } from "../../support/database-dump";
import { freePort, newDataDir, removeDataDirs, startServer, stopServer, waitUntilReady, type ServerProcess } from "../../support/server-process";
import { unusedTotpCode } from "../support";
import { scaled } from "../../support/timeouts";

/**
 * OpenID Connect sign-in end to end: a real OpenID provider (oidc-provider) on a
 * loopback port, our production server configured for it, and Chromium in between.
 * The second test follows the first's player.
 */
test.describe.configure({ mode: "serial" });

let provider: Server;
let app: ServerProcess;
let dataDir: string;

test.beforeAll(async () => {
  const [providerPort, appPort] = [await freePort(), await freePort()];
  const oidc = new Provider(`http://localhost:${providerPort}`, {
    clients: [
      {
        client_id: "raffle-rush",
        client_secret: "raffle-rush-test-secret",
        redirect_uris: [`http://localhost:${appPort}/api/auth/callback`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["given_name"] },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({ sub, email: `${sub}@oidc.test`, email_verified: true, given_name: "Olive" }),
    }),
    features: { devInteractions: { enabled: true } },
  });
  provider = oidc.listen(providerPort);
  dataDir = newDataDir();
  app = await startServer(dataDir, {
    PORT: String(appPort),
    OAUTH_ISSUER: `http://localhost:${providerPort}`,
    OAUTH_CLIENT_ID: "raffle-rush",
    OAUTH_CLIENT_SECRET: "raffle-rush-test-secret",
  });
  await waitUntilReady(app);
});

test.afterAll(async () => {
  await stopServer(app);
  await new Promise((resolve) => provider.close(resolve));
  removeDataDirs();
});

test("signs a new player in through the provider, asks for age, residence and Terms, and lands them where they were going", async ({ page }) => {
  const base = `http://localhost:${app.port}`;
  await page.goto(`${base}/api/login?returnTo=%2Fadmin-access`);

  // The provider's own sign-in and consent pages.
  await page.locator('input[name="login"]').fill("olive-e2e");
  await page.locator('input[name="password"]').fill("anything");
  await page.locator('button[type="submit"]').click();
  await page.locator('button[type="submit"]').click();

  await expect(page.getByRole("heading", { name: "One more step" })).toBeVisible();
  // Fill the form once the page's JavaScript runs: it shows the region select for the country chosen.
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.getByLabel("Date of birth").fill("1988-02-29");
  await page.getByLabel("Country where you live").selectOption("US");
  await page.getByLabel("State or province").selectOption("US-NJ");
  await page.getByLabel(/accept the/).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${base}/admin-access`);
  await expect(page.getByRole("heading", { name: "Access Restricted" })).toBeVisible();

  const me = await page.request.get(`${base}/api/auth/user`);
  expect(await me.json()).toMatchObject({ email: "olive-e2e@oidc.test", firstName: "Olive" });

  // Signing in again links to the same account, with no more questions.
  await page.request.post(`${base}/api/logout`, { headers: { Origin: base } });
  await page.goto(`${base}/api/login`);
  await expect(page).toHaveURL(new RegExp(`^${base}/`));
  await expect(page.getByTestId("welcome-name")).toHaveText("Olive");
});

test("a player with two-factor authentication gives a code after the provider too", async ({ page }) => {
  test.setTimeout(scaled(120_000));
  const base = `http://localhost:${app.port}`;
  const email = "olive-e2e@oidc.test";
  await page.goto(`${base}/api/login`);
  await page.locator('input[name="login"]').fill("olive-e2e");
  await page.locator('input[name="password"]').fill("anything");
  await page.locator('button[type="submit"]').click();
  // This browser's first visit to the provider: its consent page again.
  await page.locator('button[type="submit"]').click();
  await expect(page.getByTestId("welcome-name")).toHaveText("Olive");
  // The username (the dialog's own test is elsewhere), through the API the dialog calls.
  const named = await page.request.post(`${base}/api/auth/create-username`, { data: { username: "olive_e2e" }, headers: { Origin: base } });
  expect(named.status()).toBe(200);

  await page.goto(`${base}/settings/two-factor`);
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const secret = (await page.getByTestId("totp-secret").innerText()).trim();
  const database = await runningDatabaseUrl(dataDir);
  await page.getByLabel("Code from the app").fill(await unusedTotpCode(email, secret, database));
  await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  await expect(page.getByTestId("recovery-codes")).toBeVisible();

  await page.request.post(`${base}/api/logout`, { headers: { Origin: base } });
  await page.goto(`${base}/api/login?returnTo=%2Fhistory`);
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
  expect((await page.request.get(`${base}/api/auth/user`)).status()).toBe(401);
  await page.getByLabel("Authentication code").fill(await unusedTotpCode(email, secret, database));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${base}/history`);
});

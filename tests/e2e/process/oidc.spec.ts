import type { Server } from "node:http";
import { expect, test } from "@playwright/test";
import Provider from "oidc-provider";
import { freePort, newDataDir, removeDataDirs, startServer, stopServer, waitUntilReady, type ServerProcess } from "../../support/server-process";

/**
 * OpenID Connect sign-in end to end: a real OpenID provider (oidc-provider) on a
 * loopback port, our production server configured for it, and Chromium in between.
 */
let provider: Server;
let app: ServerProcess;

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
  app = await startServer(newDataDir(), {
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

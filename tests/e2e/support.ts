import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { runningDatabaseUrl } from "../support/database-dump";
import { e2eDataDir, isE2eSuite, type E2eSuite } from "../support/e2e-suites";
import { withClient } from "../support/test-database";

export const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** Signs up a fresh adult player through the form and gives them a username. */
export async function signUpWithUsername(page: Page): Promise<{ email: string; username: string }> {
  const id = unique();
  const email = `e2e-${id}@example.com`;
  await page.goto("/api/login");
  const form = page.getByRole("form", { name: "Create an account" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill("correct horse battery staple");
  await form.getByLabel("Date of birth").fill("1990-05-17");
  await form.getByLabel("Country where you live").selectOption("GB");
  await form.getByLabel(/accept the/).check();
  await form.getByRole("button", { name: "Create account" }).click();
  const username = `p_${id}`.slice(0, 20);
  const dialog = page.getByRole("dialog", { name: "Choose your username" });
  await dialog.getByLabel("Username").fill(username);
  await dialog.getByRole("button", { name: "Create Username" }).click();
  // The page's data is read again before the dialog goes: on a loaded machine that takes seconds.
  await expect(dialog).toHaveCount(0, { timeout: 15_000 });
  return { email, username };
}

/** Signs an API client in as a demo account (the form post a browser would make). */
export async function signInRequest(request: APIRequestContext, baseURL: string, email: string, password: string) {
  const response = await request.post("/api/login", {
    form: { intent: "signin", email, password },
    headers: { Origin: baseURL },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
}

export async function toastText(page: Page) {
  return page.getByTestId("toast").innerText();
}

/**
 * The database of the running test's suite's server (tests/support/e2e-server.ts): embedded
 * under .data/e2e/<suite>, or named in its database-url; `suite` for a test outside the
 * browser suites.
 */
export async function e2eDatabaseUrl(suite: E2eSuite = currentSuite()): Promise<string> {
  const dataDir = e2eDataDir(suite);
  const urlFile = path.join(dataDir, "database-url");
  return existsSync(urlFile) ? readFileSync(urlFile, "utf8").trim() : runningDatabaseUrl(dataDir);
}

/**
 * Gives a player cash the way a prize would (from the house, not from a card payment), so
 * that a withdrawal of it has a transfer leg: in the browser suites nobody plays long
 * enough to win cash. Made directly in the database, as test data is.
 */
export async function grantWinnings(email: string, coins: number) {
  await withClient(await e2eDatabaseUrl(), async (client) => {
    await client.query(
      `WITH u AS (SELECT id FROM users WHERE email = $1),
            a AS (INSERT INTO ledger_accounts (kind, user_id) SELECT 'user', id FROM u
                  ON CONFLICT (user_id, kind) DO UPDATE SET kind = EXCLUDED.kind RETURNING id),
            t AS (INSERT INTO ledger_transactions (kind, reference, user_id) SELECT 'prize', 'e2e-winnings:' || gen_random_uuid(), id FROM u RETURNING id)
       INSERT INTO ledger_postings (transaction_id, account_id, amount)
       SELECT t.id, x.account, x.amount FROM t,
         (SELECT (SELECT id FROM a) AS account, $2::bigint AS amount
          UNION ALL SELECT (SELECT id FROM ledger_accounts WHERE kind = 'house_rake'), -$2::bigint) x`,
      [email, coins],
    );
  });
}

/** An API client signed in as the demo admin, past the admin gate. */
export async function adminRequest(playwright: { request: { newContext: (options: object) => Promise<APIRequestContext> } }, baseURL: string) {
  const admin = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL } });
  expect((await admin.post("/api/login", { form: { intent: "signin", email: "admin@demo.test", password: "demo-admin-pass" }, maxRedirects: 0 })).status()).toBe(302);
  expect((await admin.post("/admin-access", { form: { key: "demo-admin-access-key" }, maxRedirects: 0 })).headers().location).toBe("/admin");
  return admin;
}

/** A quick round at `price` with at least `seconds` left (rounds open back to back every 30 s). */
export async function openQuickRound(request: APIRequestContext, price = "0.05", seconds = 8): Promise<string> {
  let id: string | undefined;
  await expect
    .poll(
      async () => {
        const rounds = (await (await request.get("/api/quick-raffles")).json()) as { id: string; timeRemaining: number; entryPrice: string }[];
        id = rounds.find((r) => r.entryPrice === price && r.timeRemaining >= seconds)?.id;
        return id !== undefined;
      },
      { timeout: 40_000, intervals: [1000] },
    )
    .toBe(true);
  return id!;
}

/**
 * Marks a player's email verified, as the link in their verification message would
 * (ADR 032), for suites about something else than verification; tests/e2e/email.spec.ts
 * verifies through the message itself. Made directly in the database, as test data is.
 */
export async function verifyEmailOf(email: string, databaseUrl?: string) {
  await withClient(databaseUrl ?? (await e2eDatabaseUrl()), (client) =>
    client.query("UPDATE users SET email_verified_at = now() WHERE email = $1 AND email_verified_at IS NULL", [email.toLowerCase()]),
  );
}

function currentSuite(): E2eSuite {
  const project = test.info().project.name;
  if (!isE2eSuite(project)) throw new Error(`the ${project} project has no browser suite's server`);
  return project;
}

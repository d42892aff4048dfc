import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { generate } from "otplib";
import { usernameKey } from "../../app/shared/username";
import { runningDatabaseUrl } from "../support/database-dump";
import { e2eDataDir, isE2eSuite, type E2eSuite } from "../support/e2e-suites";
import { withClient } from "../support/test-database";
import { scaled } from "../support/timeouts";

export const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** Fills and sends the sign-up form as an adult in IE (no identity check before play there; ADR 080); returns the form, for its errors. */
export async function submitSignUp(page: Page, email: string, country = "IE") {
  await page.goto("/api/login");
  const form = page.getByRole("form", { name: "Create an account" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill("correct horse battery staple");
  await form.getByLabel("Date of birth").fill("1990-05-17");
  await form.getByLabel("Country where you live").selectOption(country);
  await form.getByLabel(/accept the/).check();
  await form.getByRole("button", { name: "Create account" }).click();
  return form;
}

/** Signs up a fresh adult player through the form and gives them a username. */
export async function signUpWithUsername(page: Page, country = "IE"): Promise<{ email: string; username: string }> {
  const id = unique();
  const email = `e2e-${id}@example.com`;
  await submitSignUp(page, email, country);
  const username = `p_${id}`.slice(0, 20);
  const dialog = page.getByRole("dialog", { name: "Choose your username" });
  await dialog.getByLabel("Username").fill(username);
  await dialog.getByRole("button", { name: "Create Username" }).click();
  // The page's data is read again before the dialog goes: on a loaded machine that takes seconds.
  await expect(dialog).toHaveCount(0);
  // Tests go on to click what hydration changes (fetchers instead of page loads).
  await hydratedIfJavaScript(page);
  return { email, username };
}

/** Takes a break or a self-exclusion (`period`, as the form offers it) on /responsible-play. */
export async function excludeSelf(page: Page, period: string) {
  await page.goto("/responsible-play");
  const exclusion = page.getByRole("region", { name: "Take a break or exclude yourself" });
  await exclusion.getByLabel("Period").selectOption(period);
  await exclusion.getByRole("checkbox").check();
  await exclusion.getByRole("button", { name: "Start" }).click();
  await expect(page.getByTestId("exclusion-status")).toBeVisible();
}

/** Signs an API client up as a new adult in IE, without a username (the form post a browser would make). */
export async function signUpRequest(request: APIRequestContext, baseURL: string, email: string) {
  const response = await request.post("/api/login", {
    form: { intent: "signup", email, password: "correct horse battery staple", dateOfBirth: "1990-01-01", country: "IE", acceptTerms: "on" },
    headers: { Origin: baseURL },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
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

/**
 * For a test whose subject is a toast: the page's toasts stay until replaced or closed
 * instead of 5 s, which a loaded machine can spend before the test looks
 * (app/components/toaster.tsx). Without JavaScript a toast stays anyway.
 */
export async function keepToasts(page: Page) {
  await page.addInitScript(() => {
    window.__toastDurationMs = Infinity;
    // A toast that lasts would cover what a player could tap once it had gone (its list sits
    // over the phone's bottom bar): clicks go through it, but for its Close button.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(
      '[data-testid="toast"], [data-testid="toast"] ~ *, ol:has(> [data-testid="toast"]) { pointer-events: none !important } [data-testid="toast"] button { pointer-events: auto !important }',
    );
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  });
}

/** With JavaScript, waits for the page to be hydrated; says whether the suite runs JavaScript. */
export async function hydratedIfJavaScript(page: Page): Promise<boolean> {
  if (test.info().project.use.javaScriptEnabled === false) return false;
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  return true;
}

/**
 * Opens `url` and, with JavaScript, waits until its event stream is open: news sent from
 * then on reaches this page (ADR 028). Says whether the suite runs JavaScript.
 */
export async function gotoListening(page: Page, url: string): Promise<boolean> {
  const javascript = test.info().project.use.javaScriptEnabled !== false;
  const listening = javascript ? page.waitForResponse((r) => new URL(r.url()).pathname === "/api/events" && r.ok()) : undefined;
  await page.goto(url);
  await listening;
  return javascript;
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
export async function grantWinnings(email: string, coins: number, databaseUrl?: string) {
  await withClient(databaseUrl ?? (await e2eDatabaseUrl()), async (client) => {
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

/**
 * The player's demo card payments, refunded at the provider as at Stripe's dashboard: a
 * refund of ours is then refused, and held for review (ADR 050). Made in the database, where
 * the demo provider keeps its side.
 */
export async function refundAtProvider(email: string) {
  await withClient(await e2eDatabaseUrl(), async (client) => {
    await client.query(
      `UPDATE demo_payments d SET status = 'refunded'
       FROM payments p JOIN users u ON u.id = p.user_id
       WHERE p.provider_payment_id = d.id AND u.email = $1`,
      [email],
    );
  });
}

/** The demo admin's TOTP secret, as the README prints it (ADR 036). */
export const DEMO_ADMIN_TOTP_SECRET = "RAFFLERUSHDEMOADMIN2FACTORSECRET";
/** The bootstrap key that opens an admin's enrolment in demo mode. */
export const DEMO_BOOTSTRAP_KEY = "demo-admin-access-key";
const PERIOD_MS = 30_000;

/**
 * A code an authenticator app would show for `secret` that the server has not accepted yet
 * for the account: each time step is accepted once, and the server takes the step before,
 * at or after now. So the current step, or the step after the last one accepted (read from
 * the database) if that is later, once it is within that window; waits (polling, no sleep)
 * when the account used the next step too. Never the step before: a step boundary between
 * this and the server's check would put it out of the window.
 */
export async function unusedTotpCode(email: string, secret: string, databaseUrl?: string): Promise<string> {
  const url = databaseUrl ?? (await e2eDatabaseUrl());
  const lastStep = await withClient(url, async (client) => {
    const { rows } = await client.query<{ last_step: string | null }>(
      "SELECT f.last_step FROM totp_factors f JOIN users u ON u.id = f.user_id WHERE u.email = $1",
      [email.toLowerCase()],
    );
    return rows[0]?.last_step === null || rows[0] === undefined ? -Infinity : Number(rows[0].last_step);
  });
  const step = () => Math.max(Math.floor(Date.now() / PERIOD_MS), lastStep + 1);
  await expect.poll(() => step() <= Math.floor(Date.now() / PERIOD_MS) + 1, { timeout: scaled(65_000), intervals: [500] }).toBe(true);
  return generate({ secret, epoch: (step() * PERIOD_MS) / 1000 });
}

/** A new admin without a second factor (the demo admin's password), made in the database as test data is. */
export async function newAdmin(): Promise<{ email: string; password: string }> {
  const id = unique();
  const email = `admin-${id}@example.com`;
  const username = `a_${id}`.slice(0, 20);
  await withClient(await e2eDatabaseUrl(), (client) =>
    client.query(
      `INSERT INTO users (email, password_hash, is_admin, date_of_birth, terms_accepted_at, country, username, username_key, email_verified_at, updated_at)
       SELECT $1, password_hash, true, '1990-01-01', now(), 'GB', $2, $3, now(), now() FROM users WHERE email = 'admin@demo.test'`,
      [email, username, usernameKey(username)],
    ),
  );
  return { email, password: "demo-admin-pass" };
}

/**
 * A new admin of this test's own (the demo admin's password), signed in on `request` and
 * enrolled through the gate with the bootstrap key, which leaves the gate open for that
 * session. Each test its own admin: parallel tests never spend each other's codes.
 */
export async function enrolledAdmin(request: APIRequestContext, baseURL: string): Promise<{ email: string; password: string; secret: string }> {
  const { email } = await newAdmin();
  const headers = { Origin: baseURL };
  expect((await request.post("/api/login", { form: { intent: "signin", email, password: "demo-admin-pass" }, headers, maxRedirects: 0 })).status()).toBe(302);
  expect((await request.post("/admin-access", { form: { intent: "key", key: DEMO_BOOTSTRAP_KEY }, headers, maxRedirects: 0 })).headers().location).toBe(
    "/admin-access",
  );
  const secret = /data-testid="totp-secret"[^>]*>([A-Z2-7]+)</.exec(await (await request.get("/admin-access")).text())![1]!;
  const confirmed = await request.post("/admin-access", { form: { intent: "confirm", code: await unusedTotpCode(email, secret) }, headers, maxRedirects: 0 });
  expect(confirmed.status()).toBe(200);
  return { email, password: "demo-admin-pass", secret };
}

/** An API client signed in as an admin of its own, past the admin gate. */
export async function adminRequest(playwright: { request: { newContext: (options: object) => Promise<APIRequestContext> } }, baseURL: string) {
  const admin = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL } });
  await enrolledAdmin(admin, baseURL);
  return admin;
}

/** An open raffle or round as `/api/raffles` and `/api/quick-raffles` list it. */
type Listed = { id: string; vipOnly: boolean; entryPrice: string; timeRemaining: number };

/** What `pick` finds in the list at `path`, asked again each second until it finds something (raffles and rounds open on a schedule). */
async function pickFromList<T>(request: APIRequestContext, path: string, pick: (listed: Listed[]) => T | undefined): Promise<T> {
  let picked: T | undefined;
  await expect
    .poll(
      async () => {
        picked = pick((await (await request.get(path, { headers: { Accept: "application/json" } })).json()) as Listed[]);
        return picked !== undefined;
      },
      { timeout: scaled(40_000), intervals: [1000] },
    )
    .toBe(true);
  return picked!;
}

/**
 * The open regular raffles, not VIP-only, at `price` (any up to $1 without one) with
 * `seconds` or more left (30 unless told), the most time left first. MICRO raffles last 3
 * minutes here: one about to end may close while a test gets ready to enter it, and the
 * entry is then refused (409).
 */
export function lastingRaffles(request: APIRequestContext, price?: string, seconds = 30): Promise<string[]> {
  return pickFromList(request, "/api/raffles", (raffles) => {
    const ids = raffles
      .filter((r) => !r.vipOnly && (price === undefined ? Number(r.entryPrice) <= 1 : r.entryPrice === price) && r.timeRemaining >= seconds)
      .sort((a, b) => b.timeRemaining - a.timeRemaining)
      .map((r) => r.id);
    return ids.length > 0 ? ids : undefined;
  });
}

/** The first of `lastingRaffles`: the open raffle with the most time left. */
export async function lastingRaffle(request: APIRequestContext, price?: string): Promise<string> {
  return (await lastingRaffles(request, price))[0]!;
}

/** A quick round at `price` with at least `seconds` left (rounds open back to back every 30 s). */
export function openQuickRound(request: APIRequestContext, price = "0.05", seconds = 8): Promise<string> {
  return pickFromList(request, "/api/quick-raffles", (rounds) => rounds.find((r) => r.entryPrice === price && r.timeRemaining >= seconds)?.id);
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

import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { chromium, type APIRequestContext, type Browser } from "@playwright/test";
import { generate } from "otplib";
import { CHROMIUM_ARGS, chromiumExecutable } from "../tests/support/chromium";
import { photographMoments } from "./screens-moments";

/**
 * `npm run screens`: pictures of the main screens for the README (docs/screens/), at a
 * phone's width (390 px) and a desktop's (1280 px), light theme, one CSS pixel per image
 * pixel to keep the files small. Serves the production build the way the browser tests do
 * (tests/support/e2e-server.ts: a fresh embedded database with the demo users under
 * .data/screens, apart from the browser tests'), gives the demo player a
 * purchase and a withdrawal so that the withdraw page and the back office have something to
 * show, and photographs each page from its top, at most 2,400 px of it. A demo crowd plays
 * meanwhile, and the moments (scripts/screens-moments.ts) are pictured first.
 */
const PORT = Number(process.env.SCREENS_PORT ?? 3290);
const BASE = `http://localhost:${PORT}`;
const OUT = "docs/screens";
const WIDTHS = [390, 1280];
const MAX_HEIGHT = 2400;
const PLAYER = { email: "player@demo.test", password: "demo-player-pass" };
const ADMIN = { email: "admin@demo.test", password: "demo-admin-pass", totpSecret: "RAFFLERUSHDEMOADMIN2FACTORSECRET" };

/**
 * The demo admin's next code (ADR 036): each 30-second step is accepted once and the server
 * takes the step before, at or after now, so each sign-in here takes the next unused one.
 */
let lastStep = -Infinity;
async function adminCode(): Promise<string> {
  const now = () => Math.floor(Date.now() / 30_000);
  while (Math.max(now() - 1, lastStep + 1) > now() + 1) await new Promise((resolve) => setTimeout(resolve, 1000));
  lastStep = Math.max(now() - 1, lastStep + 1);
  return generate({ secret: ADMIN.totpSecret, epoch: lastStep * 30 });
}
const SCREENS = [
  { name: "home", path: "/", as: "player" },
  { name: "quick", path: "/quick", as: "player" },
  { name: "vip", path: "/vip", as: "player" },
  { name: "withdraw", path: "/withdraw", as: "player" },
  { name: "admin", path: "/admin/payouts", as: "admin" },
] as const;

async function waitForServer(deadline: number) {
  while (Date.now() < deadline) {
    const ready = await fetch(`${BASE}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server on ${BASE} did not become ready`);
}

async function post(request: APIRequestContext, path: string, options: Parameters<APIRequestContext["post"]>[1]) {
  const response = await request.post(path, { maxRedirects: 0, ...options, headers: { Origin: BASE, ...options?.headers } });
  if (response.status() >= 400) throw new Error(`POST ${path}: ${response.status()} ${await response.text()}`);
  return response;
}

/** A signed-in browser context; the admin also unlocks the back office. */
async function signedIn(browser: Browser, who: "player" | "admin", width: number) {
  const phone = width < 640;
  const context = await browser.newContext({
    baseURL: BASE,
    viewport: { width, height: phone ? 844 : 800 },
    isMobile: phone,
    hasTouch: phone,
    deviceScaleFactor: 1,
  });
  const account = who === "admin" ? ADMIN : PLAYER;
  await post(context.request, "/api/login", { form: { intent: "signin", email: account.email, password: account.password } });
  if (who === "admin") await post(context.request, "/admin-access", { form: { code: await adminCode() } });
  return context;
}

/** A new player (of a country that needs no identity check to play) with a username, signed in. */
let players = 0;
async function newPlayer(browser: Browser, width: number) {
  const context = await browser.newContext({
    baseURL: BASE,
    viewport: { width, height: width < 640 ? 844 : 800 },
    isMobile: width < 640,
    hasTouch: width < 640,
  });
  const email = `screens-${Date.now()}-${++players}@example.com`;
  const form = { intent: "signup", email, password: "screens-player-pass", dateOfBirth: "1990-01-01", country: "IE", acceptTerms: "on" };
  await post(context.request, "/api/login", { form });
  await post(context.request, "/api/auth/create-username", { data: { username: `Screens${players}${Date.now() % 10_000}` } });
  return context;
}

/** Something to show: a purchase (cash to withdraw) and a withdrawal waiting in the back office. */
async function stage(browser: Browser) {
  const context = await signedIn(browser, "player", 1280);
  await post(context.request, "/checkout?package=package_4", { form: { intent: "demo-pay", cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" } });
  await post(context.request, "/api/withdraw", { data: { amount: 10, method: "venmo", accountInfo: "demo-player" }, headers: { Accept: "application/json" } });
  await context.close();
}

const server = spawn(process.execPath, ["--import", "tsx", "tests/support/e2e-server.ts"], {
  env: { ...process.env, E2E_SERVER_PORT: String(PORT), E2E_DATA_DIR: ".data/screens", E2E_DEMO_CROWD: "12" },
  stdio: ["ignore", "ignore", "inherit"],
});
try {
  await waitForServer(Date.now() + 120_000);
  mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_ARGS });
  await stage(browser);
  // The moments first: meanwhile the demo crowd fills the pots that the pages below show.
  for (const width of WIDTHS) {
    for (const file of await photographMoments({ browser, base: BASE, width, out: OUT, newPlayer })) process.stdout.write(`${file}\n`);
  }
  for (const width of WIDTHS) {
    for (const screen of SCREENS) {
      const context = await signedIn(browser, screen.as, width);
      const page = await context.newPage();
      await page.goto(screen.path);
      await page.locator("html[data-hydrated=true]").waitFor();
      // The window as tall as the page (up to MAX_HEIGHT), so that the phone's fixed bottom
      // navigation is pictured at the bottom, where a person sees it.
      const height = Math.min(MAX_HEIGHT, await page.evaluate(() => document.documentElement.scrollHeight));
      await page.setViewportSize({ width, height });
      const file = `${OUT}/${screen.name}-${width}.png`;
      await page.screenshot({ path: file });
      process.stdout.write(`${file}\n`);
      await context.close();
    }
  }
  await browser.close();
} finally {
  server.kill("SIGTERM");
}

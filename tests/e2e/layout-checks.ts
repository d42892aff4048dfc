import { expect, test, type Page } from "@playwright/test";
import { lastingRaffle, signUpWithUsername, verifyEmailOf } from "./support";
import { scaled } from "../support/timeouts";

/** The phone widths every player page must fit (ADR 029); the desktop suite checks a desktop. */
export const PHONE_WIDTHS = [320, 360, 390];
export const DESKTOP_WIDTHS = [1280];

/** Pages anyone may open. */
export const PUBLIC_PAGES = ["/", "/api/login", "/terms", "/privacy", "/rules", "/responsible-play", "/fair", "/admin-access", "/no-such-page"];

/** Pages of a signed-in player (the public ones then show the player's frame); FAIR_PAGE stands for a raffle's fair-draw page. */
export const FAIR_PAGE = "/fair/{raffle}";
/** The receipt of the player's ticket in that raffle (ADR 079). */
export const RECEIPT_PAGE = "/receipts/{receipt}";
export const PLAYER_PAGES = [
  "/",
  "/quick",
  "/vip",
  "/withdraw",
  "/history",
  "/responsible-play",
  "/rules",
  "/terms",
  "/privacy",
  "/settings",
  "/settings/two-factor",
  "/account/passkeys",
  "/account/email",
  "/complaints",
  "/complaints/new?subject=other",
  "/fair",
  "/checkout?package=package_1",
  "/vip/checkout?tier=gold",
  "/admin-access",
  FAIR_PAGE,
  RECEIPT_PAGE,
  "/no-such-page",
];

/**
 * A player with something on every page: a purchase and a raffle entry in the history, a
 * withdrawal on the withdraw page. Returns the raffle entered (its fair-draw page is a
 * player page too).
 */
async function activePlayer(page: Page, baseURL: string): Promise<{ raffleId: string; receiptId: string }> {
  // A first withdrawal needs a verified email (ADR 032): verified as its link would.
  await verifyEmailOf((await signUpWithUsername(page)).email);
  const headers = { Origin: baseURL };
  const bought = await page.request.post("/checkout?package=package_4", {
    form: { intent: "demo-pay", cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" },
    headers,
    maxRedirects: 0,
  });
  expect(bought.status()).toBe(302);
  const raffleId = await lastingRaffle(page.request);
  const entered = await page.request.post(`/api/raffles/${raffleId}/enter`, { headers: { ...headers, Accept: "application/json" } });
  expect(entered.status()).toBe(200);
  const requested = await page.request.post("/api/withdraw", {
    data: { amount: 10, method: "venmo", accountInfo: "lucky-lou" },
    headers: { ...headers, Accept: "application/json" },
  });
  expect(requested.status()).toBe(200);
  const receiptId = /\/receipts\/([0-9a-f-]{36})/.exec(await (await page.request.get("/history?type=entries")).text())?.[1];
  expect(receiptId).toBeDefined();
  return { raffleId, receiptId: receiptId! };
}

/**
 * Tests as that active player, made once per worker: `page` is signed in as them, and
 * `playerPath` turns FAIR_PAGE into the page of the raffle they entered.
 */
export const playerTest = test.extend<{ playerPath: (path: string) => string }, { player: { storageState: string; raffleId: string; receiptId: string } }>({
  player: [
    async ({ browser }, provide, workerInfo) => {
      const baseURL = workerInfo.project.use.baseURL!;
      const page = await browser.newPage({ baseURL, javaScriptEnabled: workerInfo.project.use.javaScriptEnabled });
      const { raffleId, receiptId } = await activePlayer(page, baseURL);
      const storageState = workerInfo.project.outputDir + `/player-${workerInfo.workerIndex}.json`;
      await page.context().storageState({ path: storageState });
      await page.close();
      await provide({ storageState, raffleId, receiptId });
    },
    { scope: "worker", timeout: scaled(60_000) },
  ],
  storageState: async ({ player }, provide) => provide(player.storageState),
  playerPath: async ({ player }, provide) => provide((path: string) => path.replace("{raffle}", player.raffleId).replace("{receipt}", player.receiptId)),
});

/**
 * What is wrong with the page's layout as a person on a touch screen meets it:
 * - wider than the screen: the document scrolls sideways (scrollWidth past clientWidth;
 *   a mobile browser widens window.innerWidth to fit the content, so that is not the measure);
 * - a tap target under 24×24 CSS px (WCAG 2.2, 2.5.8), unless it is a link inside a sentence
 *   (the standard's "inline" exception);
 * - a button, or a link in the header or a navigation bar, under 44 px tall (ADR 029).
 *
 * Measured at rest: an entrance that scales or slides (the win moment's dialog) makes its
 * buttons smaller while it runs, so the finite animations running now are waited for first
 * (not the endless ones, nor a paused one, which would never end).
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.playState === "running" && Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity))
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) {
      const widest = [...document.body.querySelectorAll("*")]
        .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 0.5)
        .slice(0, 1)
        .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).split(" ").slice(0, 4).join(".")}`);
      problems.push(`${root.scrollWidth}px wide on a ${root.clientWidth}px screen (e.g. ${widest.join("")})`);
    }
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute("aria-label") || el.getAttribute("name") || "").trim().slice(0, 40)}"`;
    const inSentence = (el: Element) => {
      if (getComputedStyle(el).display !== "inline") return false;
      let block = el.parentElement;
      while (block && getComputedStyle(block).display === "inline") block = block.parentElement;
      return (block?.textContent ?? "").trim().length > (el.textContent ?? "").trim().length;
    };
    const targets = document.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=switch], [role=tab]");
    for (const el of targets) {
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const box = el.getBoundingClientRect();
      // Visually hidden until focused (a skip link): not a target until then.
      if (box.width <= 1 || box.height <= 1) continue;
      if (inSentence(el)) continue;
      const tall = el.matches("button, input[type=submit], header a, nav a");
      const minHeight = tall ? 44 : 24;
      if (box.width < 24 || box.height < minHeight) {
        problems.push(`${name(el)} is ${Math.round(box.width)}×${Math.round(box.height)} px (needs ≥ 24 wide, ≥ ${minHeight} tall)`);
      }
    }
    return problems;
  });
}

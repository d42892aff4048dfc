import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { e2eDatabaseUrl, excludeSelf, gotoListening, lastingRaffle, lastingRaffles, openQuickRound, signUpWithUsername } from "../support";
import { withClient } from "../../support/test-database";
import { scaled } from "../../support/timeouts";
import { playersInWords } from "../../../app/shared/raffle-display";

/** The page's visibility as the browser would report it for a tab in the background or in front. */
async function setVisibility(page: Page, state: "hidden" | "visible") {
  await page.evaluate((value) => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => value });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => value === "hidden" });
    document.dispatchEvent(new Event("visibilitychange"));
  }, state);
}

/** The page's live event streams open now (a request to /api/events not yet ended). */
function openStreams(page: Page): Set<object> {
  const open = new Set<object>();
  page.on("request", (request) => new URL(request.url()).pathname === "/api/events" && open.add(request));
  page.on("requestfailed", (request) => open.delete(request));
  page.on("requestfinished", (request) => open.delete(request));
  return open;
}

/**
 * A tab left in the background gives its live event stream back (ADR 025): after a minute
 * hidden it closes the stream; shown again it opens one and reloads what changed meanwhile.
 * The page's clock is Playwright's, so the minute passes at once.
 */
test("a hidden tab closes its live stream after a minute, and shown again reopens it with the page up to date", async ({ page, baseURL }) => {
  test.setTimeout(scaled(60_000));
  const open = openStreams(page);
  await page.clock.install();
  await signUpWithUsername(page);
  const balance = page.getByTestId("coin-balance");
  await expect(balance).toHaveText("1,000 coins");
  await expect.poll(() => open.size).toBe(1);

  await setVisibility(page, "hidden");
  await page.clock.fastForward(30_000);
  expect(open.size).toBe(1);
  await page.clock.fastForward(31_000);
  await expect.poll(() => open.size).toBe(0);

  // Meanwhile the player enters a raffle from another tab: no stream tells this one.
  const raffleId = await lastingRaffle(page.request, "0.05");
  const entered = await page.request.post(`/api/raffles/${raffleId}/enter`, { headers: { Origin: baseURL!, Accept: "application/json" }, data: {} });
  expect(entered.status()).toBe(200);

  await setVisibility(page, "visible");
  await expect(balance).toHaveText("995 coins");
  await expect.poll(() => open.size).toBe(1);
});

/**
 * Another player's entry reaches an open home page on its live stream, and the card shows the
 * pot and players from the event itself (ADR 090): every open page used to read its data
 * again for every pot. Here the page's reads of its data are held unanswered, so what changes
 * came on the stream (a draw elsewhere may still start a read: it waits, and the page stays).
 */
test("another player's entry moves the card's players at once, with no reload of the page's data", async ({ page, browser, baseURL }) => {
  test.setTimeout(scaled(60_000));
  const open = openStreams(page);
  await signUpWithUsername(page);
  await expect.poll(() => open.size).toBe(1);
  const raffleId = await lastingRaffle(page.request, "0.05");
  const card = page.locator(`article[data-raffle-id="${raffleId}"]`).first();
  const players = card.getByTestId("players");
  const before = await players.textContent();
  await page.route(/\.data(\?|$)/, () => {});

  const other = await browser.newContext({ baseURL });
  try {
    const otherPage = await other.newPage();
    await signUpWithUsername(otherPage);
    const entered = await otherPage.request.post(`/api/raffles/${raffleId}/enter`, { headers: { Origin: baseURL!, Accept: "application/json" }, data: {} });
    expect(entered.status()).toBe(200);
  } finally {
    await other.close();
  }
  await expect(players).not.toHaveText(before!);
});

/**
 * A player who takes a break gets their tickets in open raffles back. An open page had heard
 * the pot with those tickets, and took it over its own data for as long as no pot counted more
 * tickets: the card showed players and a pot that were gone. It drops that pot and reads the
 * raffle again (compared with the list as it is now: other tests may enter the same raffle).
 */
test("another player's break takes their tickets out of the card's players, on an open page", async ({ page, browser, baseURL }) => {
  test.setTimeout(scaled(60_000));
  const open = openStreams(page);
  await signUpWithUsername(page);
  await expect.poll(() => open.size).toBe(1);
  // Open for the whole test: the other player signs up, enters and takes a break first.
  const [raffleId] = await lastingRaffles(page.request, "0.05", scaled(60_000) / 1000);
  const players = page.locator(`article[data-raffle-id="${raffleId}"]`).first().getByTestId("players");
  const before = await players.textContent();

  const other = await browser.newContext({ baseURL });
  try {
    const otherPage = await other.newPage();
    await signUpWithUsername(otherPage);
    const entered = await otherPage.request.post(`/api/raffles/${raffleId}/enter`, { headers: { Origin: baseURL!, Accept: "application/json" }, data: {} });
    expect(entered.status()).toBe(200);
    await expect(players).not.toHaveText(before!);

    await excludeSelf(otherPage, "24h");
  } finally {
    await other.close();
  }
  const listed = async () => {
    const raffles = (await (await page.request.get("/api/raffles", { headers: { Accept: "application/json" } })).json()) as {
      id: string;
      participantCount: number;
    }[];
    return playersInWords(raffles.find((r) => r.id === raffleId)!.participantCount);
  };
  await expect.poll(async () => (await players.textContent()) === (await listed()), { timeout: scaled(10_000) }).toBe(true);
});

/**
 * A new quick round reaches an open /quick page on its live stream, with its card, and takes
 * its price's slot at its start (ADR 094); the round before it, drawn, shows its winner on the
 * strip and in the winners' ticker from the draw's event (ADR 095). Pages used to read their
 * data again for every round and draw: here those reads are held unanswered. The price is one
 * no other test of these projects plays: another test's player in either round would change
 * its players and its winner.
 */
const PRICE = "1.00";

test("a new round takes its slot and the last one's winner shows, told by the stream, with no reload of the page's data", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(scaled(90_000));
  const open = openStreams(page);
  // Two players in one round with time left; the other's browser is closed once they are in.
  const other = await browser.newContext({ baseURL });
  const { username, otherName, current } = await (async () => {
    try {
      // Both sign up before a round is chosen: a slow sign-up must not outlast the round.
      const otherPage = await other.newPage();
      const [{ username }, { username: otherName }] = await Promise.all([signUpWithUsername(page), signUpWithUsername(otherPage)]);
      // Time for the page to open its stream before the next round opens (2 s before its start).
      const current = await openQuickRound(page.request, PRICE, 15);
      const enter = (request: APIRequestContext) =>
        request.post(`/api/quick-raffles/${current}/enter`, { headers: { Origin: baseURL!, Accept: "application/json" }, data: {} });
      expect((await enter(page.request)).status()).toBe(200);
      expect((await enter(otherPage.request)).status()).toBe(200);
      return { username, otherName, current };
    } finally {
      await other.close();
    }
  })();

  await page.goto("/quick");
  await expect.poll(() => open.size).toBe(1);
  const slot = page.locator(`section[id="price-${PRICE}"]`).getByRole("article");
  await expect(slot).toHaveAttribute("data-raffle-id", current);
  await page.route(/\.data(\?|$)/, () => {});

  await expect(slot).not.toHaveAttribute("data-raffle-id", current, { timeout: scaled(40_000) });
  await expect(slot.getByTestId("players")).toHaveText("No players yet");
  await expect(slot.getByRole("button", { name: `Enter $${PRICE}` })).toBeEnabled();
  // Half of the two tickets' pot; whether this player won comes with their news, a read held here.
  const winner = new RegExp(`(${username}|${otherName}) won \\$1\\.00`);
  await expect(page.locator(`[data-testid="drawn-round"][data-raffle-id="${current}"]`)).toContainText(winner);
  // Rounds at other prices end at the same moment: this one's winner is in the ticker, not always first.
  await expect(page.getByRole("list", { name: "Recent quick winners" }).getByRole("listitem").filter({ hasText: winner })).toHaveCount(1);
});

/**
 * ADR 104: a page whose stream opens after the next round was told (2 s before its start)
 * still shows that round at its start, for the stream first sends what came after the page's
 * read. Here the page is read before the round opens, its stream is held until it has opened,
 * and its data reads are held from then on: only the stream can bring the round.
 */
test("a stream that opens after the next round was told still brings it at its start, with no reload of the page's data", async ({ page }) => {
  test.setTimeout(scaled(120_000));
  await signUpWithUsername(page);
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/events(\?|$)/, async (route) => {
    await held;
    await route.continue();
  });
  const databaseUrl = await e2eDatabaseUrl();
  // The round at this price opened after `round`, if any yet.
  const successor = (round: string) =>
    withClient(databaseUrl, async (client) => {
      const { rows } = await client.query<{ id: string }>(
        "SELECT next.id FROM raffles next JOIN raffles r ON r.id = $1 WHERE next.kind = 'quick' AND next.entry_price = r.entry_price AND next.starts_at > r.starts_at",
        [round],
      );
      return rows[0]?.id;
    });
  const slot = page.locator(`section[id="price-${PRICE}"]`).getByRole("article");
  // A page loaded once the next round had opened has it in its data: it is loaded again for the round after.
  let current = "";
  await expect
    .poll(
      async () => {
        current = await openQuickRound(page.request, PRICE, 6);
        await page.goto("/quick");
        return (await slot.getAttribute("data-raffle-id")) === current && (await successor(current)) === undefined;
      },
      { timeout: scaled(90_000), intervals: [0] },
    )
    .toBe(true);
  await page.route(/\.data(\?|$)/, () => {});
  let next: string | undefined;
  await expect.poll(async () => (next = await successor(current)) !== undefined, { timeout: scaled(30_000) }).toBe(true);
  release();

  await expect(slot).toHaveAttribute("data-raffle-id", next!, { timeout: scaled(30_000) });
  await expect(slot.getByRole("button", { name: `Enter $${PRICE}` })).toBeEnabled();
});

/**
 * ADR 104: a game page reached in the browser opens a stream of its own, which asks from that
 * page's read, not from the document's first load (a stream asking from then would be sent a
 * minute of events, or told to read the page again).
 */
test("a game page reached without a document load asks its stream from its own data's read", async ({ page }) => {
  await signUpWithUsername(page);
  await gotoListening(page, "/");
  const documents: string[] = [];
  page.on("request", (request) => request.resourceType() === "document" && documents.push(request.url()));
  const before = Date.now();
  const stream = page.waitForRequest((request) => new URL(request.url()).pathname === "/api/events");
  await page.getByTestId("hero-actions").getByRole("link", { name: "Quick Raffles" }).click();
  const since = new URL((await stream).url()).searchParams.get("since");
  await expect(page).toHaveURL(/\/quick$/);
  expect(documents).toEqual([]);
  expect(Number(since)).toBeGreaterThanOrEqual(before);
});

import type { Browser, BrowserContext, Page } from "@playwright/test";

/**
 * The moments of `npm run screens` (issue 33): the wheel stopped on the prize the server chose,
 * a quick round being drawn, a player's win and /quick at a round's end, at one width. Two new
 * players enter the same quick round with ten tickets each beside the demo crowd, so one of them
 * wins it; if the crowd wins, the next round is tried.
 */
type Player = { context: BrowserContext; page: Page };
type Round = { id: string; entryPrice: string; endTime: string };

const TICKETS = 10;

export async function photographMoments({
  browser,
  base,
  width,
  out,
  newPlayer,
}: {
  browser: Browser;
  base: string;
  width: number;
  out: string;
  newPlayer: (browser: Browser, width: number) => Promise<BrowserContext>;
}): Promise<string[]> {
  const files: string[] = [];
  const shot = async (page: Page, name: string) => {
    const file = `${out}/${name}-${width}.png`;
    await page.screenshot({ path: file });
    files.push(file);
  };
  const players: Player[] = [];
  for (let i = 0; i < 2; i++) {
    const context = await newPlayer(browser, width);
    players.push({ context, page: await context.newPage() });
  }
  const [first] = players as [Player, Player];

  // The wheel, at rest on its prize.
  await first.page.goto(`${base}/`);
  await first.page.locator("html[data-hydrated=true]").waitFor();
  await first.page.getByTestId("spin-button").click();
  await first.page.getByTestId("wheel-result").waitFor({ state: "visible", timeout: 30_000 });
  await first.page.locator('[data-testid=wheel-disc][data-phase="rest"]').waitFor({ timeout: 30_000 });
  // In the middle of the window, clear of the sticky header.
  await first.page.getByTestId("wheel-disc").evaluate((wheel) => wheel.scrollIntoView({ block: "center" }));
  await shot(first.page, "wheel");

  for (let attempt = 0; attempt < 3; attempt++) {
    const round = await nextRound(first.context, base);
    for (const { context } of players) {
      for (let t = 0; t < TICKETS; t++) {
        const answer = await context.request.post(`${base}/api/quick-raffles/${round.id}/enter`, { headers: { Origin: base, Accept: "application/json" } });
        if (!answer.ok()) throw new Error(`entering the quick round answered ${answer.status()}: ${await answer.text()}`);
      }
    }
    for (const { page } of players) {
      await page.goto(`${base}/quick`);
      await page.locator("html[data-hydrated=true]").waitFor();
    }
    // The drawing moment may be short: pictured when caught, not waited for past the draw.
    const drawing = await first.page
      .locator(`[data-raffle-id="${round.id}"][data-phase=drawing]`)
      .first()
      .waitFor({ timeout: 60_000 })
      .then(
        () => true,
        () => false,
      );
    if (drawing && !files.some((f) => f.includes("/draw-"))) await shot(first.page, "draw");
    const winner = await Promise.any(
      players.map(({ page }) =>
        page
          .getByTestId("win-celebration")
          .waitFor({ timeout: 30_000 })
          .then(() => page),
      ),
    ).catch(() => undefined);
    if (!winner) continue; // the crowd won this one
    await shot(winner, "win");
    const loser = players.find(({ page }) => page !== winner)!.page;
    // On /quick a drawn round leaves its slot for the next one and joins the strip above.
    await loser.locator(`[data-testid=drawn-round][data-raffle-id="${round.id}"][data-phase=won]`).waitFor({ timeout: 30_000 });
    await shot(loser, "quick-round-end");
    break;
  }
  for (const { context } of players) await context.close();
  return files;
}

/** The cheapest quick round with more than 12 s to run (time to enter and load the pages). */
async function nextRound(context: BrowserContext, base: string): Promise<Round> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const rounds = (await (await context.request.get(`${base}/api/quick-raffles`)).json()) as Round[];
    const open = rounds.filter((r) => Date.parse(r.endTime) - Date.now() > 12_000).sort((a, b) => Number(a.entryPrice) - Number(b.entryPrice));
    if (open[0]) return open[0];
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error("no quick round open with time to enter it");
}

import { expect, test } from "@playwright/test";
import { newDataDir, removeDataDirs, signUpOn, startServer, stopServer, waitUntilReady } from "../../support/server-process";
import { scaled } from "../../support/timeouts";
import { unique } from "../support";

/**
 * Issue 33, item 4 (ADR 074): a fresh demo with the crowd on comes alive by itself, with
 * nobody else playing, and every simulated player it names is marked demo; real payments
 * and a crowd never start together.
 */
test.afterAll(() => removeDataDirs());

type Named = { raffleId?: string; username: string; isDemo: boolean };

test("a fresh demo has two-player rounds and demo-marked winners within 3 minutes", async ({ page }) => {
  test.setTimeout(scaled(330_000));
  // A small crowd, its pauses a third of the human-like ones: the test's minutes are short.
  const server = await startServer(newDataDir(), { DEMO_CROWD: "6", DEMO_CROWD_SPEEDUP: "3" });
  try {
    await waitUntilReady(server, scaled(90_000));
    const base = `http://localhost:${server.port}`;
    // Someone to read the player-only APIs with, who never plays.
    const cookie = await signUpOn(base, `watcher-${unique()}@example.com`);
    const read = async <T>(path: string): Promise<T> => {
      const response = await fetch(`${base}${path}`, { headers: { cookie } });
      expect(response.status, path).toBe(200);
      return (await response.json()) as T;
    };
    const mostPlayers = async () => {
      const rounds = [...(await read<{ participantCount: number }[]>("/api/quick-raffles")), ...(await read<{ participantCount: number }[]>("/api/raffles"))];
      return Math.max(0, ...rounds.map((r) => r.participantCount));
    };
    const within3Minutes = { timeout: scaled(180_000), intervals: [1_000] };
    await expect.poll(mostPlayers, within3Minutes).toBeGreaterThanOrEqual(2);
    await expect.poll(async () => (await read<Named[]>("/api/recent-winners")).length, within3Minutes).toBeGreaterThan(0);

    const winners = await read<Named[]>("/api/recent-winners");
    expect(winners.every((w) => w.isDemo === true)).toBe(true);
    // The week's leaderboard is kept through draws for up to 5 s (ADR 084): wait for it.
    await expect.poll(async () => (await read<Named[]>("/api/leaderboard")).length, { timeout: scaled(30_000), intervals: [1_000] }).toBeGreaterThan(0);
    const leaders = await read<Named[]>("/api/leaderboard");
    expect(leaders.every((l) => l.isDemo === true)).toBe(true);
    const fair = await read<{ winner: string; winnerIsDemo: boolean }>(`/api/fair/${winners[0]!.raffleId}`);
    expect(fair).toMatchObject({ winner: winners[0]!.username, winnerIsDemo: true });

    // In the browser: the fair-draw page and the home page's winners mark the demo winner.
    await page.goto(`${base}/fair/${winners[0]!.raffleId}`);
    await expect(page.getByTestId("demo-banner")).toContainText("Some players are simulated");
    const winnerRow = page.locator("div", { has: page.getByText("Winner", { exact: true }) }).last();
    await expect(winnerRow.getByTestId("demo-mark")).toHaveText("demo");
    await page.context().addCookies(
      cookie.split("; ").map((pair) => {
        const [name, ...value] = pair.split("=");
        // Secure, as the server set them (__Host- names): localhost counts as a secure origin.
        return { name: name!, value: value.join("="), domain: "localhost", path: "/", secure: true };
      }),
    );
    await page.goto(`${base}/`);
    await expect(page.getByTestId("recent-winner").first().getByTestId("demo-mark")).toBeVisible();
    // On /quick: the winners ticker, and a round's card once it is drawn (every 30 s).
    await page.goto(`${base}/quick`);
    await expect(page.getByRole("list", { name: "Recent quick winners" }).getByTestId("demo-mark").first()).toBeVisible();
    await expect(page.getByTestId("card-result").getByTestId("demo-mark").first()).toBeVisible({ timeout: scaled(90_000) });
  } finally {
    // The crowd stops with the server: a clean shutdown, nothing left running.
    const { code } = await stopServer(server);
    expect(code).toBe(0);
    expect(server.output()).not.toContain("demo crowd tick failed");
  }
});

test("refuses to start a crowd with Stripe keys, in one line naming DEMO_CROWD", async () => {
  const server = await startServer(newDataDir(), { STRIPE_SECRET_KEY: "sk_test_crowd", STRIPE_PUBLISHABLE_KEY: "pk_test_crowd", DEMO_CROWD: "3" });
  expect(await server.exited).toBe(78);
  expect(server.output().trim()).toBe("Invalid configuration: DEMO_CROWD is for demos only, not with STRIPE_SECRET_KEY set (set DEMO_CROWD=0 or unset it)");
});

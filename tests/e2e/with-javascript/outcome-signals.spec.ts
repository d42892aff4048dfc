import { expect, test } from "@playwright/test";
import { keepToasts, signUpWithUsername } from "../support";
import { scaled } from "../../support/timeouts";

// Toasts are what these tests read: they last until read, however slow the machine.
test.beforeEach(({ page }) => keepToasts(page));

declare global {
  interface Window {
    __notifications: { title: string; body?: string }[];
    __sounds: number;
  }
}

/**
 * Records what the page asks of the browser: each Notification constructed and each sound
 * started (Notification and Web Audio are the browser's, not our code; the originals still run).
 */
function recordSignals() {
  window.__notifications = [];
  window.__sounds = 0;
  const Native = window.Notification;
  const Recorded = function (this: Notification, title: string, options?: NotificationOptions) {
    window.__notifications.push({ title, body: options?.body });
    return new Native(title, options);
  } as unknown as typeof Notification;
  Object.defineProperty(Recorded, "permission", { get: () => Native.permission });
  Object.defineProperty(Recorded, "requestPermission", { value: (...args: Parameters<typeof Native.requestPermission>) => Native.requestPermission(...args) });
  window.Notification = Recorded;
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args: Parameters<typeof start>) {
    window.__sounds += 1;
    return start.apply(this, args);
  };
}

test("sound effects and quick raffle notifications: turned on in settings, they tell the player when a round they entered is drawn", async ({
  page,
  context,
}) => {
  test.setTimeout(scaled(120_000));
  await context.grantPermissions(["notifications"]);
  await context.addInitScript(recordSignals);
  await signUpWithUsername(page);

  await page.getByRole("link", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await expect(dialog.getByRole("switch", { name: /Sound effects/ })).not.toBeChecked();
  await expect(dialog.getByRole("switch", { name: /Quick raffle notifications/ })).not.toBeChecked();
  await dialog.getByRole("switch", { name: /Quick raffle notifications/ }).check();
  await dialog.getByRole("switch", { name: /Sound effects/ }).check();
  // Turning sound on plays a sample.
  await expect.poll(() => page.evaluate(() => window.__sounds)).toBeGreaterThan(0);
  await expect.poll(async () => (await page.request.get("/api/settings")).json()).toMatchObject({ soundEffects: true, quickRaffleNotifications: true });
  await expect(dialog.getByTestId("no-auto-enter")).toContainText("UK rules ban autoplay");
  await dialog.getByRole("button", { name: "Done" }).click();

  // A quick round with time left to enter; alone in it, the player is refunded when it is drawn.
  let round: { id: string } | undefined;
  await expect
    .poll(
      async () => {
        const rounds = (await (await page.request.get("/api/quick-raffles")).json()) as {
          id: string;
          timeRemaining: number;
          entryPrice: string;
          participantCount: number;
        }[];
        round = rounds.find((r) => r.entryPrice === "0.05" && r.timeRemaining >= 12 && r.participantCount === 0);
        return Boolean(round);
      },
      { timeout: scaled(40_000), intervals: [1000] },
    )
    .toBe(true);
  await page.goto("/quick");
  await page.locator(`[data-raffle-id="${round!.id}"]`).getByRole("button", { name: "Enter $0.05" }).click();
  await expect(page.getByTestId("toast")).toContainText("Quick Entry!");
  await expect(page.locator(`[data-raffle-id="${round!.id}"]`).getByTestId("my-tickets")).toContainText("1");

  await expect
    .poll(() => page.evaluate(() => window.__notifications), { timeout: scaled(60_000) })
    .toContainEqual(expect.objectContaining({ title: expect.stringMatching(/^(Quick raffle cancelled|Quick raffle drawn|You won!)$/) }));
  expect(await page.evaluate(() => window.__sounds)).toBeGreaterThan(0);
});

test("with the settings off (the defaults), a drawn round makes no sound and no notification", async ({ page, context }) => {
  test.setTimeout(scaled(120_000));
  await context.grantPermissions(["notifications"]);
  await context.addInitScript(recordSignals);
  await signUpWithUsername(page);
  let round: { id: string } | undefined;
  await expect
    .poll(
      async () => {
        const rounds = (await (await page.request.get("/api/quick-raffles")).json()) as {
          id: string;
          timeRemaining: number;
          entryPrice: string;
          participantCount: number;
        }[];
        round = rounds.find((r) => r.entryPrice === "0.05" && r.timeRemaining >= 12 && r.participantCount === 0);
        return Boolean(round);
      },
      { timeout: scaled(40_000), intervals: [1000] },
    )
    .toBe(true);
  await page.goto("/quick");
  const card = page.locator(`[data-raffle-id="${round!.id}"]`);
  await card.getByRole("button", { name: "Enter $0.05" }).click();
  await expect(page.getByTestId("toast")).toContainText("Quick Entry!");
  // Drawn: its card leaves the page.
  await expect(card).toHaveCount(0, { timeout: scaled(60_000) });
  expect(await page.evaluate(() => ({ notifications: window.__notifications.length, sounds: window.__sounds }))).toEqual({ notifications: 0, sounds: 0 });
});

import { describe, expect, it } from "vitest";
import { excludeSelf } from "~/services/play-safety/responsible-play.server";
import { call, cookiesFrom, pageText, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";

/** Help for everyone, and no marketing while a player takes a break (PRODUCT.md, responsible play). */
describe("help", () => {
  it("links the responsible-play page to real help, for visitors and players alike", async () => {
    for (const cookie of [undefined, await sessionCookie((await createTestUser()).id)]) {
      const page = await pageText(await call("/responsible-play", { cookie }));
      for (const help of [
        "https://www.gamcare.org.uk/",
        "https://www.begambleaware.org/",
        "https://www.ncpgambling.org/",
        "1-800-GAMBLER",
        "tel:18004264537",
      ]) {
        expect(page).toContain(help);
      }
    }
  });
});

describe("marketing stops during a break", () => {
  it("hides offers, the coin store, the wheel and win banners, and says why", async () => {
    const resting = await createTestUser({ coins: 100n });
    await excludeSelf(resting.id, "24h");
    const page = await pageText(await call("/", { cookie: await sessionCookie(resting.id) }));
    expect(page).toContain('data-testid="paused-notice"');
    expect(page).toContain("You are taking a break until");
    expect(page).not.toContain('href="/checkout?package=');
    expect(page).not.toContain('id="coin-store"');
    expect(page).not.toContain("Join VIP");
    // Nothing invites play: no "win half the pot", no entry buttons, no ENDING SOON or QUICK ENTER.
    await createTestRaffle({ entryPrice: 5n });
    const invitations = ["Win half the pot", ">Enter $", "QUICK ENTER", "ENDING SOON"];
    const homeAgain = await pageText(await call("/", { cookie: await sessionCookie(resting.id) }));
    for (const invitation of invitations) expect(homeAgain).not.toContain(invitation);
    // No raffle cards or pots at all, only the account's calm panel (PRODUCT.md, revised 2026-11-27).
    expect(homeAgain).not.toContain('data-testid="raffle-card"');
    expect(homeAgain).not.toContain('data-testid="pot"');
    expect(homeAgain).toContain('href="/withdraw"');
    const quick = await pageText(await call("/quick", { cookie: await sessionCookie(resting.id) }));
    for (const invitation of invitations) expect(quick).not.toContain(invitation);
    expect(quick).not.toContain("Buy coins");
    const vip = await pageText(await call("/vip", { cookie: await sessionCookie(resting.id) }));
    expect(vip).not.toContain('href="/vip/checkout?tier=');
    expect(vip).not.toContain("Claim Daily Bonus");
    // A checkout page sends them back before any payment form, saying why.
    const checkout = await call("/checkout?package=package_2", { cookie: await sessionCookie(resting.id) });
    expect(checkout.status).toBe(302);
    expect(checkout.headers.get("Location")).toBe("/");
    const back = await pageText(await call("/", { cookie: `${await sessionCookie(resting.id)}; ${cookiesFrom(checkout)}` }));
    expect(back).toContain("Checkout unavailable");

    const playing = await createTestUser({ coins: 100n });
    const usual = await pageText(await call("/", { cookie: await sessionCookie(playing.id) }));
    expect(await pageText(await call("/vip", { cookie: await sessionCookie(playing.id) }))).toContain('href="/vip/checkout?tier=');
    expect((await call("/checkout?package=package_2", { cookie: await sessionCookie(playing.id) })).status).toBe(200);
    expect(usual).not.toContain('data-testid="paused-notice"');
    expect(usual).toContain('href="/checkout?package=');
    expect(usual).toContain("Join VIP");
    expect(usual).toContain("Win half the pot");
    expect(usual).toContain(">Enter $");
  });
});

import { describe, expect, it } from "vitest";
import { call, pageText, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";

/** The part of `html` from the element that has `marker` to the end of its section. */
function sectionWith(html: string, marker: string): string {
  const start = html.lastIndexOf("<section", html.indexOf(marker));
  return html.slice(start, html.indexOf("</section>", start));
}

const primaries = (html: string) => [...html.matchAll(/class="btn btn-primary[^"]*"[^>]*>([^<]+)</g)].map((m) => m[1]);
const links = (html: string) => [...html.matchAll(/class="btn btn-link[^"]*"[^>]*>([^<]+)</g)].map((m) => m[1]);

/** Issue 33 item 2: one main action per screen (PRODUCT.md "Look and feel"). */
describe("home's hero", () => {
  it("has one main action: the raffles for a player who can afford one, the coin store for one who cannot", async () => {
    await createTestRaffle({ entryPrice: 5n });
    const broke = await createTestUser();
    const brokeHero = sectionWith(await pageText(await call("/", { cookie: await sessionCookie(broke.id) })), 'id="hero-title"');
    expect(primaries(brokeHero)).toEqual(["Buy Coins"]);
    expect(links(brokeHero)).toEqual(["View Raffles", "Quick Raffles", "Join VIP", "Withdraw"]);

    const playing = await createTestUser({ coins: 100n });
    const hero = sectionWith(await pageText(await call("/", { cookie: await sessionCookie(playing.id) })), 'id="hero-title"');
    expect(primaries(hero)).toEqual(["View Raffles"]);
    expect(links(hero)).toEqual(["Buy Coins", "Quick Raffles", "Join VIP", "Withdraw"]);
  });

  it("greets a visitor with one main action, sign-in a quiet second", async () => {
    const landing = await pageText(await call("/"));
    const top = landing.slice(0, landing.indexOf("Features"));
    expect(primaries(top)).toEqual(["Get Started"]);
    expect(landing).toMatch(/class="btn btn-secondary[^"]*"[^>]*>Login to Play</);
  });
});

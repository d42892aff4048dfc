import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { drawDueRaffles, enterRaffle } from "~/services/raffles/raffles.server";
import { call, pageText, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";

/** The part of `html` from the element that has `marker` to the end of its section. */
function sectionWith(html: string, marker: string): string {
  const start = html.lastIndexOf("<section", html.indexOf(marker));
  return html.slice(start, html.indexOf("</section>", start));
}

const primaries = (html: string) => [...html.matchAll(/class="btn btn-primary[^"]*"[^>]*>([^<]+)</g)].map((m) => m[1]);
const links = (html: string) => [...html.matchAll(/class="btn btn-link[^"]*"[^>]*>([^<]+)</g)].map((m) => m[1]);

/** One raffle's card in a page. */
function card(html: string, raffleId: string): string {
  const start = html.lastIndexOf("<article", html.indexOf(`data-raffle-id="${raffleId}"`));
  expect(start).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf("</article>", start));
}

/** Issue 33 items 2 and 3: cards that lead with the pot and say, in words, who plays and what the player's chance is. */
describe("home's raffle cards", () => {
  it("shows a drawn raffle's winning ticket and a verified mark that links to its proof", async () => {
    const [a, b] = [await createTestUser({ coins: 100n }), await createTestUser({ coins: 100n })];
    const ends = new Date(Date.now() + 2000);
    const raffle = await createTestRaffle({ endsAt: ends });
    await enterRaffle({ userId: a.id, raffleId: raffle.id });
    await enterRaffle({ userId: b.id, raffleId: raffle.id });
    await drawDueRaffles(new Date(ends.getTime() + 1000));
    // Drawn moments ago, past the draw's reel: the card shows its result.
    await db().raffle.update({ where: { id: raffle.id }, data: { drawnAt: new Date(Date.now() - 3000) } });
    const { winningTicket } = await db().raffle.findUniqueOrThrow({ where: { id: raffle.id }, select: { winningTicket: true } });
    const drawn = card(await pageText(await call("/", { cookie: await sessionCookie(a.id) })), raffle.id);
    expect(drawn).toContain('data-phase="won"');
    expect(drawn).toContain(`Ticket #${winningTicket}`);
    expect(drawn).toMatch(new RegExp(`<a href="/fair/${raffle.id}" class="rc-verified[^"]*"[^>]*>Verified draw</a>`));
  });

  it("says how many play and the player's own chance in words", async () => {
    const [a, b] = [await createTestUser({ coins: 100n }), await createTestUser({ coins: 100n })];
    const raffle = await createTestRaffle();
    await enterRaffle({ userId: a.id, raffleId: raffle.id });
    await enterRaffle({ userId: b.id, raffleId: raffle.id, tickets: 3 });
    const html = await pageText(await call("/", { cookie: await sessionCookie(a.id) }));
    const mine = card(html, raffle.id);
    expect(mine).toMatch(/data-testid="players">2 players</);
    expect(mine).toContain("You have 1 of 4 tickets · 1 in 4");
    const theirs = card(await pageText(await call("/", { cookie: await sessionCookie(b.id) })), raffle.id);
    expect(theirs).toContain("You have 3 of 4 tickets · 75% chance");
  });

  it("marks the last seconds by words and colour, without flashing", async () => {
    const player = await createTestUser({ coins: 100n });
    const raffle = await createTestRaffle({ endsAt: new Date(Date.now() + 40_000) });
    const closing = card(await pageText(await call("/", { cookie: await sessionCookie(player.id) })), raffle.id);
    expect(closing).toContain('data-phase="ending-soon"');
    expect(closing).toMatch(/class="rc [^"]*rc-closing/);
    expect(closing).toContain(">Closing<");
    expect(closing).not.toContain("animate-ping");
  });
});

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

import { describe, expect, it } from "vitest";
import { DRAWS_PER_PAGE } from "~/services/fairness/fair.server";
import { drawDueRaffles, enterRaffle } from "~/services/raffles/raffles.server";
import { call } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";

/** /fair's list of draws, paged by "Older draws" links that carry the last draw's place (app/shared/page-cursor.ts). */
describe("/fair's list of draws", () => {
  it("pages through every draw once, newest first, and refuses a page no link gave", async () => {
    const endsAt = new Date(Date.now() - 1_000);
    const startsAt = new Date(endsAt.getTime() - 60_000);
    const players = await Promise.all([createTestUser({ coins: 10_000n }), createTestUser({ coins: 10_000n })]);
    const mine = new Set<string>();
    // More than a page, drawn in one batch: many share a draw time, so the id orders them.
    for (let i = 0; i < DRAWS_PER_PAGE + 5; i++) {
      const raffle = await createTestRaffle({ startsAt, endsAt, entryPrice: 5n });
      for (const player of players) await enterRaffle({ userId: player.id, raffleId: raffle.id, tickets: 1, now: new Date(startsAt.getTime() + 1_000) });
      mine.add(raffle.id);
    }
    await drawDueRaffles(new Date());

    const seen: string[] = [];
    const pages: number[] = [];
    for (let url: string | null = "/fair"; url;) {
      const response = await call(url);
      expect(response.status).toBe(200);
      const html = await response.text();
      const ids = [...html.matchAll(/href="\/fair\/([0-9a-f-]{36})"/g)].map((m) => m[1]!);
      seen.push(...ids);
      pages.push(ids.length);
      url = /href="(\/fair\?before=[^"]+)"/.exec(html)?.[1] ?? null;
    }
    // Full pages until the last, no draw twice, each of ours once.
    expect(pages.slice(0, -1).every((n) => n === DRAWS_PER_PAGE)).toBe(true);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => mine.has(id))).toHaveLength(mine.size);

    // A cursor no page gave, a year PostgreSQL has not among them: the latest, and why, as a 400.
    for (const before of ["yesterday", `0000-01-01T00:00:00.000Z_${[...mine][0]}`, `${new Date().toISOString()}_not-a-uuid`]) {
      const response = await call(`/fair?before=${encodeURIComponent(before)}`);
      expect(response.status, before).toBe(400);
      expect(await response.text(), before).toContain("That page of draws does not exist");
    }
  });
});

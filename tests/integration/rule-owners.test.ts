import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { enterRaffles } from "~/models/raffles/raffle.server";
import { listUsers } from "~/services/back-office/admin.server";
import { getSession } from "~/web/auth.server";
import { checkJurisdiction, placesServed, type Places } from "~/shared/jurisdictions";
import { getEnv } from "~/infra/env.server";
import { enterRaffle } from "~/services/raffles/raffles.server";
import { consume, RateLimited, slidingWindow } from "~/services/system/rate-limit.server";
import { playState } from "~/services/play-safety/reality-check.server";
import { assertMayPlay } from "~/services/play-safety/responsible-play.server";
import { sessionCookie } from "../support/app";
import { codeOf } from "../support/outcomes";
import { createTestRaffle, createTestUser } from "../support/factories";

/**
 * The place rule and the rate limit's sliding-window comparison each have one owner, a
 * database function (docs/decisions/041-libraries-for-plumbing-and-rule-owners.md): every
 * path that applies them calls it, so they cannot disagree.
 */

/** Every file of ours that could state a rule: the app's TypeScript and the database functions. */
function sources(): { file: string; text: string }[] {
  const found: { file: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|tsx|sql)$/.test(entry.name)) found.push({ file: path.relative(process.cwd(), full), text: readFileSync(full, "utf8") });
    }
  };
  walk(path.resolve("app"));
  walk(path.resolve("prisma/sql/functions"));
  return found.filter(({ file }) => !file.startsWith(path.join("app", "generated")));
}

const mayPlayFrom = async (country: string | null, region: string | null, places: Places) =>
  (
    await db().$queryRaw<
      { ok: boolean }[]
    >`SELECT may_play_from(${country}::text, ${region}::text, ${places.countries}::text[], ${places.regions}::text[]) AS ok`
  )[0]!.ok;

describe("the place a player may play from: may_play_from owns it", () => {
  it("allows a listed country anywhere, and a region only in its own country", async () => {
    const places = { countries: ["GB", "MT"], regions: ["US-NJ", "US-PA"], verifyCountries: [] };
    expect(await mayPlayFrom("GB", null, places)).toBe(true);
    expect(await mayPlayFrom("GB", "US-TX", places)).toBe(true);
    expect(await mayPlayFrom("US", "US-NJ", places)).toBe(true);
    // A region counts only in its own country, and a region-limited country needs one.
    for (const [country, region] of [
      ["FR", null],
      ["US", "US-TX"],
      ["US", null],
      ["FR", "US-NJ"],
      [null, "US-NJ"],
      [null, null],
    ] as const) {
      expect(await mayPlayFrom(country, region, places), `${country} ${region}`).toBe(false);
    }
  });

  it("is stated once: the entry function and the TypeScript call it rather than restate it", () => {
    const stating = sources().filter(({ text }) => /left\(\s*[\w."]*region/i.test(text) || /regions\[[^\]]+\]\?\.includes/.test(text));
    expect(stating.map(({ file }) => file)).toEqual([path.join("prisma", "sql", "functions", "may_play_from.sql")]);
    // Who calls it is shown by behaviour below: every path gives the same answer for each home.
    expect(sources().filter(({ text }) => text.includes("may_play_from(")).length).toBeGreaterThan(1);
  });

  it("gives sign-up, an entry, a purchase's gate, the player's pages and the back office the same answer for each home", async () => {
    const raffle = await createTestRaffle({ entryPrice: 5n, maxTicketsPerPlayer: 100 });
    const homes = [
      ["GB", null],
      ["FR", null],
      ["US", "US-NJ"],
      ["US", "US-TX"],
      ["US", null],
      ["FR", "US-NJ"],
      [null, "US-NJ"],
      ["CA", "CA-ON"],
    ] as const;
    const answers: boolean[] = [];
    for (const [country, region] of homes) {
      const player = await createTestUser({ coins: 100n });
      await db().user.update({ where: { id: player.id }, data: { country, region } });
      const served = await mayPlayFrom(country, region, placesServed(getEnv().ALLOWED_COUNTRIES));
      const expected = served ? "ok" : "jurisdiction";
      const home = `${country} ${region}`;
      // Sign-up's check of the form (with a message per field) takes the same places.
      if (country) expect(checkJurisdiction(getEnv().ALLOWED_COUNTRIES, country, region ?? undefined).ok, home).toBe(served);
      await expect(codeOf(enterRaffle({ userId: player.id, raffleId: raffle.id })), home).resolves.toBe(expected);
      await expect(codeOf(assertMayPlay(player.id)), home).resolves.toBe(expected);
      const session = await getSession(new Request("http://localhost/", { headers: { cookie: await sessionCookie(player.id) } }));
      expect((await playState(session!)).paused?.kind === "jurisdiction", home).toBe(!served);
      const { users } = await listUsers(player.email, 0);
      expect(users.find((u) => u.id === player.id)?.playClosed, home).toBe(!served);
      answers.push(served);
    }
    // The configuration in force serves some of these homes and not others.
    expect(new Set(answers)).toEqual(new Set([true, false]));
  });
});

describe("the rate limit's sliding window: rate_limit_exceeds owns the comparison", () => {
  it("is stated once: the entry function and the other limits call it rather than restate it", () => {
    const weighing = sources().filter(({ text }) => /\*\s*[\w.${}[\]]*overlap|overlap[\w\]}]*\s*\*/i.test(text));
    expect(weighing.map(({ file }) => file)).toEqual([path.join("prisma", "sql", "functions", "rate_limit_exceeds.sql")]);
    // Who calls it is shown by behaviour below: an entry admits as many hits as any other limit.
    expect(sources().filter(({ text }) => text.includes("rate_limit_exceeds(")).length).toBeGreaterThan(1);
  });

  it("admits as many hits through an entry as through any other limit, whatever the previous window held and however far into the window", async () => {
    const raffle = await createTestRaffle({ entryPrice: 1n, maxTicketsPerPlayer: 1_000 });
    const max = 3;
    const windowSeconds = 60;
    const windowStart = Math.floor(Date.now() / 60_000) * 60_000;
    for (const previousCount of [0, 1, 2, 3, 5]) {
      for (const into of [0, 0.25, 0.5, 0.75, 0.999]) {
        const now = new Date(windowStart + into * windowSeconds * 1000);
        const name = `test-owner-${previousCount}-${into}`;
        const limit = { name, max, windowSeconds };
        const w = slidingWindow(limit, now);
        const player = await createTestUser({ coins: 100n });
        await db().rateLimitBucket.createMany({
          data: [
            { key: `${name}:other`, windowStart: w.previous, count: previousCount },
            { key: `${name}:${player.id}`, windowStart: w.previous, count: previousCount },
          ],
        });
        const admittedByLimit = async () => {
          for (let hit = 0; hit <= max; hit++) {
            const refused = await consume(limit, "other", now).then(
              () => false,
              (error: unknown) => error instanceof RateLimited,
            );
            if (refused) return hit;
          }
          return max + 1;
        };
        const admittedByEntry = async () => {
          const rules = { limitName: name, limitMax: max, playIdleGapMs: 30 * 60_000, countries: ["GB"], regions: [], verifyCountries: [] };
          for (let hit = 0; hit <= max; hit++) {
            const window = { start: w.start, previous: w.previous, overlap: w.overlap };
            const [row] = await enterRaffles([{ userId: player.id, raffleId: raffle.id, tickets: 1, now, window }], rules);
            if (row!.outcome === "rate_limited") return hit;
          }
          return max + 1;
        };
        const case_ = `previous window ${previousCount}, ${into} into this one`;
        expect(await admittedByEntry(), case_).toBe(await admittedByLimit());
      }
    }
  });
});

import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalance } from "~/models/money/ledger.server";
import { consume, giveBack, LIMITS, RateLimited, type Limit } from "~/services/system/rate-limit.server";
import { call, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";
import { ledgerSnapshot } from "../support/ledger-snapshot";
import { saturate } from "../support/rate-limits";

const LIMIT: Limit = { name: "test", max: 10, windowSeconds: 1 };
const at = (ms: number) => new Date(1_800_000_000_000 + ms);

async function outcomes(subject: string, times: number[]) {
  const results: string[] = [];
  for (const t of times) {
    results.push(
      await consume(LIMIT, subject, at(t)).then(
        () => "ok",
        (e: unknown) => (e instanceof RateLimited ? "429" : "error"),
      ),
    );
  }
  return results;
}

describe("rate limits", () => {
  it("allows the limit within a window and refuses the rest, with the seconds to wait", async () => {
    const results = await outcomes(
      "a",
      Array.from({ length: 12 }, (_, i) => i * 10),
    );
    expect(results).toEqual([...Array(10).fill("ok"), "429", "429"]);
    await expect(consume(LIMIT, "a", at(500))).rejects.toMatchObject({ retryAfterSeconds: 1 });
  });

  it("does not let a burst across a window boundary through twice", async () => {
    // 8 hits at the end of one window, then 8 at the start of the next.
    const results = await outcomes("b", [...Array(8).fill(990), ...Array(8).fill(1010)]);
    expect(results.filter((r) => r === "ok").length).toBeLessThanOrEqual(11);
    expect(results.filter((r) => r === "429").length).toBeGreaterThanOrEqual(5);
  });

  it("forgets hits once their window has slid past", async () => {
    await outcomes("c", Array(10).fill(0));
    expect(await outcomes("c", [2500])).toEqual(["ok"]);
  });

  it("keeps subjects apart", async () => {
    await outcomes("d", Array(11).fill(0));
    expect(await outcomes("e", [0])).toEqual(["ok"]);
  });

  it("admits at most the limit of 50 hits fired at once, and does not count the refused ones", async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        consume(LIMIT, "f", at(0)).then(
          () => "ok",
          (e: unknown) => (e instanceof RateLimited ? "429" : String(e)),
        ),
      ),
    );
    expect(results.filter((r) => r === "ok")).toHaveLength(10);
    expect(results.filter((r) => r === "429")).toHaveLength(40);
    const bucket = await db().rateLimitBucket.findFirstOrThrow({ where: { key: "test:f" } });
    expect(bucket.count).toBe(10);
  });

  it("takes back a hit that must not count", async () => {
    const hits = await Promise.all(Array.from({ length: 10 }, () => consume(LIMIT, "g", at(0))));
    await expect(consume(LIMIT, "g", at(0))).rejects.toBeInstanceOf(RateLimited);
    await giveBack(hits[0]!);
    await consume(LIMIT, "g", at(0));
    await expect(consume(LIMIT, "g", at(0))).rejects.toBeInstanceOf(RateLimited);
  });
});

describe("the entry limit (10 per second per player)", () => {
  async function setUp() {
    const player = await createTestUser({ coins: 10_000n });
    const raffle = await createTestRaffle({ maxTicketsPerPlayer: 1000 });
    return {
      player,
      raffle,
      cookie: await sessionCookie(player.id),
      enter: (cookie: string) => call(`/api/raffles/${raffle.id}/enter`, { method: "POST", cookie, json: {} }),
    };
  }

  it("answers an entry over the limit with 429 and Retry-After, and moves no coin", async () => {
    const { player, raffle, cookie, enter } = await setUp();
    await saturate(LIMITS.entriesPerPlayer, player.id);
    const before = await ledgerSnapshot();
    const response = await enter(cookie);
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(await response.json()).toEqual({ message: "Too many requests. Please wait a moment and try again." });
    expect(await ledgerSnapshot()).toEqual(before);
    expect(await db().entry.count({ where: { raffleId: raffle.id } })).toBe(0);
    // Another player is not held back.
    const other = await createTestUser({ coins: 100n });
    expect((await enter(await sessionCookie(other.id))).status).toBe(200);
  });

  it("lets a burst of 30 through only up to the limit, and the refused ones move no coin", async () => {
    const { player, raffle, cookie, enter } = await setUp();
    const transactions = (await ledgerSnapshot()).transactions;
    const started = Date.now();
    const burst = await Promise.all(Array.from({ length: 30 }, () => enter(cookie)));
    const seconds = Math.floor(Date.now() / 1000) - Math.floor(started / 1000) + 1;
    const statuses = burst.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    const accepted = statuses.filter((s) => s === 200).length;
    expect(accepted).toBeGreaterThanOrEqual(1);
    // Never more than the limit within one second (on a slow machine the burst may span several).
    expect(accepted).toBeLessThanOrEqual(seconds * LIMITS.entriesPerPlayer.max);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(30 - seconds * LIMITS.entriesPerPlayer.max);
    expect(await db().entry.count({ where: { raffleId: raffle.id } })).toBe(accepted);
    expect(await userBalance(player.id)).toBe(10_000n - 5n * BigInt(accepted));
    expect((await ledgerSnapshot()).transactions).toBe(transactions + accepted);
  });
});

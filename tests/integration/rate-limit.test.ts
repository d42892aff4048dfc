import { describe, expect, it } from "vitest";
import { consume, ensureUnder, RateLimited, type Limit } from "~/services/rate-limit.server";

const LIMIT: Limit = { name: "test", max: 10, windowSeconds: 1 };
const at = (ms: number) => new Date(1_800_000_000_000 + ms);

async function outcomes(subject: string, times: number[]) {
  const results: string[] = [];
  for (const t of times) {
    results.push(await consume(LIMIT, subject, at(t)).then(() => "ok", (e: unknown) => (e instanceof RateLimited ? "429" : "error")));
  }
  return results;
}

describe("rate limits", () => {
  it("allows the limit within a window and refuses the rest, with the seconds to wait", async () => {
    const results = await outcomes("a", Array.from({ length: 12 }, (_, i) => i * 10));
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

  it("checks without counting", async () => {
    await ensureUnder(LIMIT, "f", at(0));
    await outcomes("f", Array(10).fill(0));
    await expect(ensureUnder(LIMIT, "f", at(0))).rejects.toBeInstanceOf(RateLimited);
  });
});

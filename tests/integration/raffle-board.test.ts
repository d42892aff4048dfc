import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { stats } from "~/models/raffles/raffle-board.server";
import { createTestRaffle, createTestUser } from "../support/factories";

describe("the day's figures", () => {
  it("count each player with an entry in the last 24 hours once, and no one whose last entry is older", async () => {
    // A day far ahead, which no other test writes entries in.
    const now = new Date(Date.UTC(2090, 0, 2, 12));
    const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * 3_600_000);
    const [many, one, lapsed] = [await createTestUser(), await createTestUser(), await createTestUser()];
    const raffle = await createTestRaffle();
    const tickets = [
      { user: many, createdAt: at(1) },
      { user: many, createdAt: at(2) },
      { user: many, createdAt: at(23.9) },
      { user: one, createdAt: at(0.1) },
      { user: lapsed, createdAt: at(24.1) },
    ];
    await db().entry.createMany({
      data: tickets.map((t, position) => ({ raffleId: raffle.id, userId: t.user.id, position, cash: 5n, bonus: 0n, createdAt: t.createdAt })),
    });
    expect((await stats(now, at(12))).players).toBe(2);
    // Half an hour earlier, `lapsed`'s entry is within the day; an hour later, only `one`'s and `many`'s newest two are.
    expect((await stats(at(0.5), at(12))).players).toBe(3);
    expect((await stats(at(-1), at(12))).players).toBe(2);
    expect((await stats(at(-23), at(12))).players).toBe(1);
  });
});

import { register } from "prom-client";
import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { completeRaffleEarly } from "~/services/raffles/early-completion.server";
import { drawDueRaffles, enterRaffle } from "~/services/raffles/raffles.server";
import { createTestRaffle, createTestUser } from "../support/factories";

/**
 * The audit log keeps decisions (issue 31; ADR 054): an empty round ended by the clock is
 * counted in raffles_cancelled_total{reason="empty"}, not logged; a round that refunded
 * someone, and an admin's early completion, still are.
 */
async function emptyCount(): Promise<number> {
  const line = (await register.metrics()).split("\n").find((l) => l.startsWith('raffle_raffles_cancelled_total{reason="empty"}'));
  return line ? Number(line.split(" ").at(-1)) : 0;
}

const cancelRows = (raffleId: string) => db().auditEvent.count({ where: { action: "raffle.cancel", target: `raffle:${raffleId}` } });

describe("empty rounds and the audit log", () => {
  it("counts empty rounds the clock ended without logging them, and logs refunds and admins' decisions", async () => {
    const ended = { startsAt: new Date(Date.now() - 60_000), endsAt: new Date(Date.now() - 1_000) };
    const empty = await Promise.all(Array.from({ length: 3 }, () => createTestRaffle(ended)));
    const lonely = await createTestRaffle(ended);
    const player = await createTestUser({ coins: 100n });
    await db().raffle.update({ where: { id: lonely.id }, data: { endsAt: new Date(Date.now() + 60_000) } });
    await enterRaffle({ userId: player.id, raffleId: lonely.id });
    await db().raffle.update({ where: { id: lonely.id }, data: { endsAt: ended.endsAt } });
    const before = await emptyCount();

    const outcomes = await drawDueRaffles(new Date());
    expect(outcomes.filter((o) => o.outcome === "cancelled")).toHaveLength(4);
    for (const raffle of empty) expect(await cancelRows(raffle.id)).toBe(0);
    expect(await emptyCount()).toBe(before + 3);
    // A refund moved coins: it stays in the log.
    expect(await cancelRows(lonely.id)).toBe(1);

    // An admin's early completion of an empty raffle is a decision: logged.
    const admin = await createTestUser({ isAdmin: true });
    const open = await createTestRaffle();
    await completeRaffleEarly(open.id, admin.id);
    expect(await db().auditEvent.count({ where: { target: `raffle:${open.id}`, actor: admin.id } })).toBeGreaterThan(0);
    expect(await cancelRows(open.id)).toBe(1);
  });
});

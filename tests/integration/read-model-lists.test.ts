import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { db } from "~/models/db.server";
import { listRaffles, listUpcoming } from "~/services/raffles/raffle-views.server";
import { enterRaffle } from "~/services/raffles/raffles.server";
import * as readModel from "~/infra/read-model.server";
import { createTestRaffle, createTestUser } from "../support/factories";
import { settled, toldGame, unannounced, withReadModel } from "../support/read-model";

describe("the raffle lists from memory (ADR 013, 101)", () => {
  withReadModel();

  it("reads a raffle list once for concurrent askers, and does not keep a read that a raffle change or a pot overtook", async () => {
    await settled();
    let loads = 0;
    // Heard while the next read is on its way.
    let overtaking: (() => void) | undefined = () => readModel.applyChange("raffles");
    const load = async () => {
      loads++;
      overtaking?.();
      overtaking = undefined;
      return [{ id: "listed", pot: 0n, ticketCount: loads, playerCount: 1 }];
    };
    const tickets = async () => (await readModel.activeRaffles("quick", load))[0]!.ticketCount;
    // Both askers share the one read...
    expect(await Promise.all([tickets(), tickets()])).toEqual([1, 1]);
    // ...which the change overtook: it was not kept, the next asker reads again.
    expect(await tickets()).toBe(2);
    expect(await tickets()).toBe(2);
    // A pot moved while a read was on its way: that read is not kept either.
    readModel.applyChange("raffles");
    overtaking = () => readModel.potMoved({ kind: "quick", raffleId: "other", pot: 5n, ticketCount: 1, playerCount: 1 }, readModel.listChangesNow());
    expect(await tickets()).toBe(3);
    expect(await tickets()).toBe(4);
    expect(await tickets()).toBe(4);
  });

  it("moves a pot on the kept list without reading it again, from its event or this instance's entry; older figures change nothing", async () => {
    const raffleId = randomUUID();
    let loads = 0;
    const load = async () => {
      loads++;
      return [{ id: raffleId, pot: 100n, ticketCount: 2, playerCount: 1, tier: "kept" }];
    };
    const listed = async () => (await readModel.activeRaffles("quick", load))[0]!;
    await settled();
    readModel.applyChange("raffles");
    expect(await listed()).toEqual({ id: raffleId, pot: 100n, ticketCount: 2, playerCount: 1, tier: "kept" });
    // Its event, heard from another instance's entry.
    const event = (ticketCount: number) =>
      toldGame({ type: "pot", raffleId, kind: "quick", currentPot: `${ticketCount}.00`, participantCount: 2, ticketCount });
    await event(4);
    expect(await listed()).toEqual({ id: raffleId, pot: 400n, ticketCount: 4, playerCount: 2, tier: "kept" });
    // This instance's entry, answered before its event arrives.
    readModel.potMoved({ kind: "quick", raffleId, pot: 600n, ticketCount: 6, playerCount: 3 }, readModel.listChangesNow());
    expect(await listed()).toMatchObject({ pot: 600n, ticketCount: 6, playerCount: 3 });
    // An event older than the list's figures (an earlier entry's, heard after) changes nothing.
    await event(5);
    expect(await listed()).toMatchObject({ pot: 600n, ticketCount: 6 });
    expect(loads).toBe(1);
    // An entry whose batch a raffle change overtook: the list is read again instead.
    const since = readModel.listChangesNow();
    readModel.applyChange("raffles");
    await listed();
    readModel.potMoved({ kind: "quick", raffleId, pot: 700n, ticketCount: 7, playerCount: 3 }, since);
    expect(await listed()).toMatchObject({ pot: 100n, ticketCount: 2 });
    expect(loads).toBe(3);
    // Any other game event (a new round, a draw) reads the list again.
    await toldGame({ type: "round", raffleId, kind: "quick", tier: "kept" });
    await listed();
    expect(loads).toBe(4);
  });

  it("lists raffles from memory until a raffle changes; an entry moves its pot there at once, and the player's tickets are read", async () => {
    const player = await createTestUser({ coins: 100n });
    const raffle = await createTestRaffle();
    const listed = async () => (await listRaffles("regular", { userId: player.id })).find((r) => r.id === raffle.id);
    await settled();
    expect(await listed()).toMatchObject({ ticketCount: 0, myTickets: 0, currentPot: "0.00" });
    await unannounced(() => db().raffle.update({ where: { id: raffle.id }, data: { maxTicketsPerPlayer: 7 } }));
    expect((await listed())?.maxTicketsPerPlayer).not.toBe(7); // from memory
    await enterRaffle({ userId: player.id, raffleId: raffle.id, tickets: 3 });
    // The next read, at once: the entry moved the pot on the kept list, which was not read again.
    const after = await listed();
    expect(after).toMatchObject({ ticketCount: 3, participantCount: 1, myTickets: 3, currentPot: "0.15" });
    expect(after?.maxTicketsPerPlayer).not.toBe(7);
    await db().raffle.update({ where: { id: raffle.id }, data: { vipOnly: false } });
    await vi.waitFor(async () => expect(await listed()).toMatchObject({ ticketCount: 3, myTickets: 3, maxTicketsPerPlayer: 7, currentPot: "0.15" }));
  });

  it("lists a raffle once its start time passes, though nothing in the database changed", async () => {
    const startsAt = new Date(Date.now() + 60_000);
    const raffle = await createTestRaffle({ startsAt, endsAt: new Date(startsAt.getTime() + 60_000) });
    const ids = async (now: Date) => (await listRaffles("regular", { now })).map((r) => r.id);
    await settled();
    expect(await ids(new Date())).not.toContain(raffle.id);
    expect(await ids(new Date(startsAt.getTime() + 1))).toContain(raffle.id);
  });

  it("lists a round opened ahead of its start as upcoming until it starts, with what its card shows (ADR 094)", async () => {
    const startsAt = new Date(Date.now() + 60_000);
    const raffle = await createTestRaffle({ kind: "quick", tier: "sonic", entryPrice: 50n, startsAt, endsAt: new Date(startsAt.getTime() + 30_000) });
    await settled();
    expect((await listUpcoming("quick")).find((r) => r.raffleId === raffle.id)).toEqual({
      raffleId: raffle.id,
      kind: "quick",
      tier: "sonic",
      entryPrice: "0.50",
      startTime: startsAt.toISOString(),
      endTime: raffle.endsAt.toISOString(),
      vipOnly: false,
    });
    expect((await listUpcoming("quick", new Date(startsAt.getTime() + 1))).map((r) => r.raffleId)).not.toContain(raffle.id);
  });
});

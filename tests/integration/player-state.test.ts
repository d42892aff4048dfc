import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { db } from "~/models/db.server";
import { readPlayerState } from "~/models/accounts/player-state.server";
import * as readModel from "~/infra/read-model.server";
import { enterRaffle } from "~/services/raffles/raffles.server";
import { enterRaffles } from "~/models/raffles/raffle.server";
import { onNotification } from "~/infra/listener.server";
import { excludeSelf } from "~/services/play-safety/responsible-play.server";
import { playerState, playerTickets } from "~/services/accounts/player-state.server";
import { spinWheel } from "~/services/rewards/rewards.server";
import { createTestRaffle, createTestUser } from "../support/factories";
import { settled, withReadModel } from "../support/read-model";

describe("what a page shows of its player (ADR 101)", () => {
  it("reads the coins, the last spin and the tickets in open raffles of both games, in one statement", async () => {
    const player = await createTestUser({ coins: 100n, cash: 30n });
    expect(await readPlayerState(player.id)).toEqual({ cash: 30n, bonus: 100n, lastSpin: null, tickets: new Map() });

    const [regular, quick, drawn] = [await createTestRaffle(), await createTestRaffle({ kind: "quick", tier: "sonic" }), await createTestRaffle()];
    await enterRaffle({ userId: player.id, raffleId: regular.id, tickets: 3 });
    await enterRaffle({ userId: player.id, raffleId: quick.id, tickets: 1 });
    await enterRaffle({ userId: player.id, raffleId: drawn.id, tickets: 2 });
    // A raffle no longer open is not the page's: its tickets are left out.
    await db().raffle.update({ where: { id: drawn.id }, data: { status: "cancelled" } });
    const spin = await spinWheel(player.id);

    const state = await readPlayerState(player.id);
    expect(state.tickets).toEqual(
      new Map([
        [regular.id, 3],
        [quick.id, 1],
      ]),
    );
    expect(state.lastSpin).toEqual({ spunAt: expect.any(Date), reward: spin.reward });
    // Bonus coins pay first (30 coins of tickets), then the spin's reward is bonus.
    expect([state.cash, state.bonus]).toEqual([30n, 100n - 30n + spin.reward]);
    // A player who never played has no accounts yet: nothing, not an error.
    const newcomer = await createTestUser();
    expect(await readPlayerState(newcomer.id)).toEqual({ cash: 0n, bonus: 0n, lastSpin: null, tickets: new Map() });
  });
});

describe("a read shared by a page's loaders", () => {
  withReadModel();

  it("serves askers at once one read, but not an asker after a write this instance answered", async () => {
    const userId = randomUUID();
    let loads = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const load = async () => {
      const n = ++loads;
      await gate;
      return { n, tickets: new Map<string, number>() };
    };
    // The root's loader and the page's, both before the read is back: one read.
    const [root, page] = [readModel.playerRead(userId, load), readModel.playerRead(userId, load)];
    // A write answered while it is on its way (the player's entry): a later asker reads again.
    readModel.afterWrite(undefined, { keepsSession: true });
    const later = readModel.playerRead(userId, load);
    release();
    expect((await Promise.all([root, page, later])).map((s) => s.n)).toEqual([1, 1, 2]);
    // Once the reads are back, the next asker reads again: only the tickets are kept.
    expect((await readModel.playerRead(userId, load)).n).toBe(3);
  });
});

/** Waits until the read model has heard that these players' tickets changed (this handler, registered after its own, hears it after). */
async function heardTicketsOf(userId: string) {
  let seen = false;
  const off = onNotification("read_model", (payload) => (seen ||= payload.startsWith("tickets:") && payload.slice(8).split(",").includes(userId)));
  return {
    heard: () => vi.waitFor(() => expect(seen).toBe(true)),
    off,
  };
}

describe("a player's tickets, kept between their own entries (ADR 103)", () => {
  withReadModel();

  it("keeps the tickets a page read until the player's entry, which forgets them before it answers", async () => {
    const [player, other] = [await createTestUser({ coins: 100n }), await createTestUser({ coins: 100n })];
    const raffle = await createTestRaffle();
    await enterRaffle({ userId: player.id, raffleId: raffle.id, tickets: 1 });
    await settled();
    await playerState(player.id);
    expect(readModel.keptTickets(player.id)).toEqual(new Map([[raffle.id, 1]]));

    // Another player's entry, told by every instance: the player's tickets stay.
    const told = await heardTicketsOf(other.id);
    await enterRaffle({ userId: other.id, raffleId: raffle.id, tickets: 2 });
    await told.heard();
    told.off();
    expect(readModel.keptTickets(player.id)).toEqual(new Map([[raffle.id, 1]]));

    // The player's own entry: gone when it answers, not when the database's word arrives.
    await enterRaffle({ userId: player.id, raffleId: raffle.id, tickets: 2 });
    expect(readModel.keptTickets(player.id)).toBeUndefined();
    expect(await playerTickets(player.id)).toEqual(new Map([[raffle.id, 3]]));
  });

  it("forgets a player's tickets when another instance's entry or a refund names them", async () => {
    const player = await createTestUser({ coins: 100n });
    const raffle = await createTestRaffle();
    await settled();
    // An entry another instance sent (its queue is not this one's): only the database tells.
    const rules = { limitName: "test-told", limitMax: 100, playIdleGapMs: 60_000, countries: ["GB"], regions: [], verifyCountries: [] };
    expect(await playerTickets(player.id)).toEqual(new Map());
    await enterRaffles([{ userId: player.id, raffleId: raffle.id, tickets: 2, now: new Date() }], rules);
    await vi.waitFor(() => expect(readModel.keptTickets(player.id)).toBeUndefined());
    expect(await playerTickets(player.id)).toEqual(new Map([[raffle.id, 2]]));

    // A break refunds them.
    expect(readModel.keptTickets(player.id)).toBeDefined();
    await excludeSelf(player.id, "24h");
    expect(readModel.keptTickets(player.id)).toBeUndefined();
    expect(await playerTickets(player.id)).toEqual(new Map());
  });

  it("does not keep a read that the player's entry overtook, even one a later loader joins", async () => {
    const player = await createTestUser();
    await settled();
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const load = async () => {
      await gate;
      return { tickets: new Map([["before-the-entry", 1]]) };
    };
    // The root's loader's read is on its way when the entry is heard; the page's loader joins it after.
    const root = readModel.playerRead(player.id, load);
    readModel.applyChange(`tickets:${player.id}`);
    const page = readModel.playerRead(player.id, load);
    release();
    await Promise.all([root, page]);
    expect(readModel.keptTickets(player.id)).toBeUndefined();
    // Nothing heard meanwhile: kept.
    await readModel.playerRead(player.id, async () => ({ tickets: new Map([["kept", 1]]) }));
    expect(readModel.keptTickets(player.id)).toEqual(new Map([["kept", 1]]));
  });
});

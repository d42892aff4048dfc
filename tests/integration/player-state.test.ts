import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { readPlayerState } from "~/models/accounts/player-state.server";
import * as readModel from "~/infra/read-model.server";
import { enterRaffle } from "~/services/raffles/raffles.server";
import { spinWheel } from "~/services/rewards/rewards.server";
import { createTestRaffle, createTestUser } from "../support/factories";
import { withReadModel } from "../support/read-model";

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

  it("serves askers at once one read, but not an asker after a write this instance answered, and keeps nothing", async () => {
    let loads = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const load = async () => {
      const n = ++loads;
      await gate;
      return n;
    };
    // The root's loader and the page's, both before the read is back: one read.
    const [root, page] = [readModel.shared("player:test", load), readModel.shared("player:test", load)];
    // A write answered while it is on its way (the player's entry): a later asker reads again.
    readModel.afterWrite(undefined, { keepsSession: true });
    const later = readModel.shared("player:test", load);
    release();
    expect(await Promise.all([root, page, later])).toEqual([1, 1, 2]);
    // Nothing is kept once the reads are back.
    expect(await readModel.shared("player:test", load)).toBe(3);
  });
});

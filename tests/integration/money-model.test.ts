import fc from "fast-check";
import { describe, it } from "vitest";
import { setupModel, startingCoins } from "../support/money-model";
import { commands } from "../support/money-model-commands";

/**
 * The model test (tests/support/money-model.ts, money-model-commands.ts and money-model-payouts.ts): fast-check generates sequences of
 * deposits, VIP purchases, entries, draws, cancellations, early completions, spins, VIP
 * claims, withdrawals, approvals, rejections, refunds, disputes and breaks; after every
 * step the ledger sums to zero, no balance is negative, every stored balance equals its
 * postings, and every balance, raffle, payment and payout equals the model's.
 *
 * MODEL_RUNS raises the number of runs (default 10, for CI); MODEL_SEED (and
 * MODEL_PATH) replay the run a failure printed.
 */
const RUNS = Number(process.env.MODEL_RUNS ?? 10);
const MAX_COMMANDS = Number(process.env.MODEL_COMMANDS ?? 40);

/**
 * Each run's clock starts 60 days before the previous run's, so that no raffle of an
 * earlier run (all later in time) is ever due in a later one: the scheduler's pass
 * draws every due raffle in the database. A fixed origin keeps UTC days (VIP claims)
 * the same when a seed is replayed.
 */
const ORIGIN = Date.UTC(2031, 0, 1, 12, 0, 0);
const RUN_SPACING_MS = 60 * 86_400_000;

describe("the money model", () => {
  it(
    "keeps the ledger balanced and every balance as the model says, whatever the sequence",
    async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(startingCoins, fc.commands(commands, { maxCommands: MAX_COMMANDS, size: "max" }), async (coins, steps) => {
          const base = new Date(ORIGIN - run++ * RUN_SPACING_MS);
          await fc.asyncModelRun(() => setupModel(base, coins), steps);
        }),
        {
          numRuns: RUNS,
          ...(process.env.MODEL_SEED ? { seed: Number(process.env.MODEL_SEED) } : {}),
          ...(process.env.MODEL_PATH ? { path: process.env.MODEL_PATH } : {}),
        },
      );
    },
    Math.max(60_000, RUNS * 20_000),
  );
});

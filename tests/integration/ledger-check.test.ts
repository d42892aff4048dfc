import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { ledgerInvariants } from "~/models/money/ledger.server";
import { BALANCED } from "../support/money-invariants";
import { createTestUser } from "../support/factories";

/**
 * The ledger check behind /metrics's raffle_ledger_ok and every integration test's
 * afterEach: it must see balances their postings do not explain (floors are the table's CHECKs).
 */
describe("the ledger check", () => {
  it("finds balances their postings do not explain", async () => {
    const funded = await createTestUser({ cash: 500n });
    const short = await createTestUser({ cash: 9n });
    expect(await ledgerInvariants()).toEqual(BALANCED);
    const shift = (userId: string, by: bigint) =>
      db().$executeRaw`UPDATE ledger_accounts SET balance = balance + ${by} WHERE user_id = ${userId}::uuid AND kind = 'user'`;
    await shift(funded.id, 5n);
    await shift(short.id, -4n);
    try {
      expect(await ledgerInvariants()).toEqual({ ...BALANCED, total: 1n, mismatched: 2 });
    } finally {
      await shift(funded.id, -5n);
      await shift(short.id, 4n);
    }
    expect(await ledgerInvariants()).toEqual(BALANCED);
  });
});

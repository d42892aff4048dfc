import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, expect, inject } from "vitest";
import { connectDb, disconnectDb } from "~/models/db.server";
import { ledgerInvariants } from "~/models/money/ledger.server";
import { cloneDatabase, databaseUrl, dropDatabase } from "./test-database";

/** Each test file gets its own database, cloned from the migrated template. */
const adminUrl = inject("databaseAdminUrl");
const template = inject("templateDatabase");
const name = `${template}_${randomBytes(4).toString("hex")}`;

export const testDatabaseUrl = databaseUrl(adminUrl, name);

beforeAll(async () => {
  await cloneDatabase(adminUrl, template, name);
  connectDb(testDatabaseUrl, { poolSize: 20 });
});

/** After every integration test: the ledger sums to zero and agrees with itself. */
afterEach(async () => {
  expect(await ledgerInvariants()).toEqual({ total: 0n, bonusTotal: 0n, mismatched: 0, negative: 0, unbalanced: 0 });
});

afterAll(async () => {
  await disconnectDb();
  await dropDatabase(adminUrl, name);
});

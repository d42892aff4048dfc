import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, inject } from "vitest";
import { connectDb, disconnectDb } from "~/models/db.server";
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

afterAll(async () => {
  await disconnectDb();
  await dropDatabase(adminUrl, name);
});

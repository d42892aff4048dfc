import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { describeDatabase, describeSchemaFile } from "../support/schema-drift";
import { testDatabaseUrl } from "../support/database-setup";

const SCHEMA = path.resolve("prisma/schema.prisma");

describe("migrations and schema.prisma", () => {
  it("the migrated database matches schema.prisma: tables, columns, types, nullability, defaults, indexes, keys", async () => {
    expect(await describeDatabase(testDatabaseUrl)).toEqual(describeSchemaFile(SCHEMA));
  });

  it("notices a difference (the check can fail)", async () => {
    await db().$executeRawUnsafe(`ALTER TABLE "users" ALTER COLUMN "username" SET NOT NULL`);
    await db().$executeRawUnsafe(`CREATE INDEX "users_first_name_idx" ON "users"("first_name")`);
    const actual = await describeDatabase(testDatabaseUrl);
    const expected = describeSchemaFile(SCHEMA);
    expect(actual).not.toEqual(expected);
    expect(actual).toContain("column users.username text NOT NULL");
    expect(expected).toContain("column users.username text NULL");
    expect(actual).toContain("index users index(first_name) users_first_name_idx");
  });
});

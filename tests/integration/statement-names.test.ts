import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { createTestUser } from "../support/factories";

/**
 * Prisma's statements are named (ADR 106): a connection parses one once and then only binds
 * and runs it. Within a transaction, all on one connection, PostgreSQL counts each plan of it.
 */
describe("statements Prisma sends", () => {
  it("are prepared once a connection and run again by name", async () => {
    const user = await createTestUser();
    const prepared = await db().$transaction(async (tx) => {
      for (let i = 0; i < 3; i++) expect(await tx.user.findUnique({ where: { id: user.id }, select: { username: true } })).toEqual({ username: user.username });
      return tx.$queryRaw<{ name: string; runs: number }[]>`
        SELECT name, (generic_plans + custom_plans)::int AS runs FROM pg_prepared_statements
         WHERE statement LIKE 'SELECT "public"."users"."id", "public"."users"."username" FROM %'`;
    });
    expect(prepared).toEqual([{ name: expect.stringMatching(/^prisma_\d+$/), runs: 3 }]);
  });
});

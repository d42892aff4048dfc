import { createHash } from "node:crypto";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import { migrate, MigrationError, pendingMigrations, readFunctions, readMigrations } from "~/models/migrations.server";
import { databaseUrl, dropDatabase, withClient } from "../support/test-database";

const adminUrl = inject("databaseAdminUrl");
const created: string[] = [];

async function emptyDatabase(): Promise<string> {
  const name = `${inject("templateDatabase")}_empty_${created.length}_${process.pid}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`));
  created.push(name);
  return databaseUrl(adminUrl, name);
}

async function appliedRows(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT migration_name, checksum, finished_at, applied_steps_count, rolled_back_at FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    return rows;
  } finally {
    await client.end();
  }
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** A folder of migrations and one of function sources, written from name → SQL. */
function sources(migrations: Record<string, string>, functions: Record<string, string>) {
  const root = mkdtempSync(path.join(os.tmpdir(), "sources-"));
  for (const [name, sql] of Object.entries(migrations)) {
    mkdirSync(path.join(root, "migrations", name), { recursive: true });
    writeFileSync(path.join(root, "migrations", name, "migration.sql"), sql);
  }
  mkdirSync(path.join(root, "functions"));
  for (const [name, sql] of Object.entries(functions)) writeFileSync(path.join(root, "functions", `${name}.sql`), sql);
  return { migrations: readMigrations(path.join(root, "migrations")), functions: readFunctions(path.join(root, "functions")) };
}

const TABLE = { "20000101000000_table": `CREATE TABLE "t" ("id" INTEGER PRIMARY KEY, "seen" INTEGER NOT NULL DEFAULT 0);` };
const ADD_ONE = `CREATE OR REPLACE FUNCTION "f"(a INTEGER) RETURNS INTEGER LANGUAGE plpgsql AS $$ BEGIN RETURN a + 1; END $$;`;
const ADD_TWO = `CREATE OR REPLACE FUNCTION "f"(a INTEGER, b INTEGER) RETURNS INTEGER LANGUAGE plpgsql AS $$ BEGIN RETURN a + b; END $$;`;
const markSeen = (value: number) => `
CREATE OR REPLACE FUNCTION "g"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "t" SET "seen" = ${value} WHERE "id" = NEW."id";
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER "t_g" AFTER INSERT ON "t" FOR EACH ROW EXECUTE FUNCTION "g"();`;

afterEach(async () => {
  for (const name of created.splice(0)) await dropDatabase(adminUrl, name);
});

describe("migrate", () => {
  it("applies every migration once and records it the way Prisma does", async () => {
    const url = await emptyDatabase();
    const migrations = readMigrations();
    expect(await migrate(url)).toEqual(migrations.map((m) => m.name));
    const rows = await appliedRows(url);
    expect(rows.map((r) => r.migration_name)).toEqual(migrations.map((m) => m.name));
    for (const [i, row] of rows.entries()) {
      expect(row.checksum).toBe(migrations[i]!.checksum);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.applied_steps_count).toBe(1);
      expect(row.rolled_back_at).toBeNull();
    }
    expect(await migrate(url)).toEqual([]);
  });

  it("uses the SHA-256 of the migration file as its checksum", () => {
    for (const migration of readMigrations()) {
      expect(migration.checksum).toBe(createHash("sha256").update(migration.sql).digest("hex"));
    }
  });

  it("is safe when several processes migrate the same fresh database at once", async () => {
    const url = await emptyDatabase();
    const results = await Promise.all([migrate(url), migrate(url), migrate(url), migrate(url)]);
    expect(results.flat()).toEqual(readMigrations().map((m) => m.name));
    expect(await appliedRows(url)).toHaveLength(readMigrations().length);
  });

  it("refuses to start when an applied migration was edited afterwards", async () => {
    const url = await emptyDatabase();
    await migrate(url);
    const edited = readMigrations().map((m, i) => (i === 0 ? { ...m, checksum: "0".repeat(64) } : m));
    await expect(migrate(url, edited)).rejects.toThrow(MigrationError);
  });

  it("rolls back a failing migration and records nothing for it", async () => {
    const url = await emptyDatabase();
    const dir = mkdtempSync(path.join(os.tmpdir(), "migrations-"));
    for (const [name, sql] of [
      ["20000101000000_ok", `CREATE TABLE "a" ("id" INTEGER PRIMARY KEY);`],
      ["20000101000001_broken", `CREATE TABLE "b" ("id" INTEGER PRIMARY KEY); SELECT no_such_function();`],
    ] as const) {
      mkdirSync(path.join(dir, name));
      writeFileSync(path.join(dir, name, "migration.sql"), sql);
    }
    await expect(migrate(url, readMigrations(dir))).rejects.toThrow(/20000101000001_broken failed/);
    const rows = await appliedRows(url);
    expect(rows.map((r) => r.migration_name)).toEqual(["20000101000000_ok"]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rowCount } = await client.query(`SELECT 1 FROM pg_tables WHERE tablename = 'b'`);
    await client.end();
    expect(rowCount).toBe(0);
  });
});

describe("database functions (one source file each)", () => {
  it("runs exactly the function sources of prisma/sql/functions: one file per function, no other function", async () => {
    const url = await emptyDatabase();
    await migrate(url);
    const defined = await query<{ name: string; source: string }>(
      url,
      `SELECT proname AS name, prosrc AS source FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY proname`,
    );
    const files = readFunctions();
    expect(defined.map((f) => f.name)).toEqual(files.map((f) => f.name));
    for (const file of files) {
      const body = /AS \$\$([\s\S]*)\$\$;/.exec(file.sql)?.[1];
      expect(defined.find((f) => f.name === file.name)?.source, file.name).toBe(body);
    }
    expect(await pendingMigrations((sql) => query(url, sql))).toEqual([]);
  });

  it("re-applies a changed source: a new signature replaces the old one, a trigger function is replaced in place", async () => {
    const url = await emptyDatabase();
    const first = sources(TABLE, { f: ADD_ONE, g: markSeen(1) });
    await migrate(url, first.migrations, first.functions);
    await query(url, `INSERT INTO "t" ("id") VALUES (1)`);
    expect(await query(url, `SELECT "f"(1) AS v, (SELECT "seen" FROM "t" WHERE "id" = 1) AS seen`)).toEqual([{ v: 2, seen: 1 }]);

    const second = sources(TABLE, { f: ADD_TWO, g: markSeen(2) });
    expect(await pendingMigrations((sql) => query(url, sql), second.migrations, second.functions)).toEqual(["function f", "function g"]);
    expect(await migrate(url, second.migrations, second.functions)).toEqual([]);
    await query(url, `INSERT INTO "t" ("id") VALUES (2)`);
    expect(await query(url, `SELECT "f"(1, 2) AS v, (SELECT "seen" FROM "t" WHERE "id" = 2) AS seen`)).toEqual([{ v: 3, seen: 2 }]);
    expect(await query(url, `SELECT count(*)::int AS n FROM pg_proc WHERE proname = 'f'`)).toEqual([{ n: 1 }]);
    expect(await pendingMigrations((sql) => query(url, sql), second.migrations, second.functions)).toEqual([]);
  });

  it("leaves an unchanged source alone, and re-applies every source after a migration ran", async () => {
    const url = await emptyDatabase();
    const first = sources(TABLE, { f: ADD_ONE });
    await migrate(url, first.migrations, first.functions);
    const appliedAt = async () => (await query<{ at: Date }>(url, `SELECT applied_at AS at FROM "_database_functions"`))[0]!.at;
    const before = await appliedAt();
    await migrate(url, first.migrations, first.functions);
    expect(await appliedAt()).toEqual(before);

    // A migration that drops the function (as a table change might) gets it back.
    const later = sources({ ...TABLE, "20000101000001_drop": `DROP FUNCTION "f"(INTEGER);` }, { f: ADD_ONE });
    await migrate(url, later.migrations, later.functions);
    expect(await query(url, `SELECT "f"(41) AS v`)).toEqual([{ v: 42 }]);
  });

  it("refuses a broken source, keeping the function that was there", async () => {
    const url = await emptyDatabase();
    const first = sources(TABLE, { f: ADD_ONE });
    await migrate(url, first.migrations, first.functions);
    const broken = sources(TABLE, { f: ADD_ONE.replace("RETURN a + 1;", "RETURN a +;") });
    await expect(migrate(url, broken.migrations, broken.functions)).rejects.toThrow(/Database function f failed/);
    expect(await query(url, `SELECT "f"(1) AS v`)).toEqual([{ v: 2 }]);
    const misnamed = sources(TABLE, { f: ADD_ONE, h: ADD_TWO });
    await expect(migrate(url, misnamed.migrations, misnamed.functions)).rejects.toThrow(/does not define a function named h/);
  });
});

describe("20261125090000_usernames_by_look", () => {
  it("keys existing usernames by look; of existing look-alikes the oldest keeps the key and the others are grandfathered", async () => {
    const url = await emptyDatabase();
    const all = readMigrations();
    const index = all.findIndex((m) => m.name === "20261125090000_usernames_by_look");
    await migrate(url, all.slice(0, index), []);
    await query(
      url,
      `INSERT INTO users (email, username, username_key, created_at, updated_at) VALUES
        ('a@x.test', 'DemoPlayer', 'demoplayer', '2026-01-01', now()), ('b@x.test', 'DemoPIayer', 'demopiayer', '2026-01-02', now()),
        ('c@x.test', 'Lucky_7', 'lucky_7', '2026-01-03', now()), ('d@x.test', NULL, NULL, '2026-01-04', now())`,
    );
    await migrate(url, all, readFunctions());
    const rows = await query<{ email: string; username: string | null; username_key: string | null; id: string }>(url, `SELECT id::text, email, username, username_key FROM users ORDER BY email`);
    expect(rows.map((r) => [r.username, r.username_key])).toEqual([
      ["DemoPlayer", "dernoplayer"],
      ["DemoPIayer", `dernoplayer#${rows[1]!.id}`],
      ["Lucky_7", "lucky_7"],
      [null, null],
    ]);
  });
});

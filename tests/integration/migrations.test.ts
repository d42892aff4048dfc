import { createHash } from "node:crypto";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import { migrate, MigrationError, readMigrations } from "~/models/migrations.server";
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

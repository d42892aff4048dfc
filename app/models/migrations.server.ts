import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

/**
 * Applies the SQL migrations in prisma/migrations and records them in
 * `_prisma_migrations` exactly as `prisma migrate deploy` does (same table, same
 * SHA-256 checksum of the file, same advisory lock), so either tool sees the
 * other's work as applied. See docs/decisions/002-migrations-as-sql.md.
 */
export const MIGRATIONS_DIR = path.resolve("prisma/migrations");

/** The advisory lock key Prisma's migrate engine takes, so that we and it never interleave. */
const PRISMA_MIGRATE_LOCK = 72707369;

export type Migration = { name: string; sql: string; checksum: string };

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(path.join(dir, name, "migration.sql"));
      return { name, sql: bytes.toString("utf8"), checksum: createHash("sha256").update(bytes).digest("hex") };
    });
}

const CREATE_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

type AppliedRow = { migration_name: string; checksum: string; finished_at: Date | null };

async function appliedRows(client: pg.Client): Promise<AppliedRow[]> {
  const { rows } = await client.query<AppliedRow>(
    `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations"
     WHERE rolled_back_at IS NULL ORDER BY started_at`,
  );
  return rows;
}

export class MigrationError extends Error {
  name = "MigrationError";
}

/** Applies every pending migration; returns the names applied. Safe to run from several processes at once. */
export async function migrate(databaseUrl: string, migrations = readMigrations()): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK]);
    await client.query(CREATE_TABLE);
    const applied = new Map((await appliedRows(client)).map((row) => [row.migration_name, row]));
    for (const row of applied.values()) {
      if (row.finished_at === null) {
        throw new MigrationError(
          `Migration ${row.migration_name} failed earlier and was not rolled back; resolve it by hand before starting`,
        );
      }
    }
    const done: string[] = [];
    for (const migration of migrations) {
      const previous = applied.get(migration.name);
      if (previous) {
        if (previous.checksum !== migration.checksum) {
          throw new MigrationError(`Migration ${migration.name} was modified after it was applied`);
        }
        continue;
      }
      const id = randomUUID();
      await client.query("BEGIN");
      try {
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`,
          [id, migration.checksum, migration.name],
        );
        await client.query(migration.sql);
        await client.query(
          `UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`,
          [id],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new MigrationError(`Migration ${migration.name} failed: ${(error as Error).message}`);
      }
      done.push(migration.name);
    }
    return done;
  } finally {
    await client.query("SELECT pg_advisory_unlock_all()").catch(() => {});
    await client.end();
  }
}

/** Names of migrations on disk that the database has not applied (empty when up to date). */
export async function pendingMigrations(
  query: (sql: string) => Promise<{ migration_name: string }[]>,
  migrations = readMigrations(),
): Promise<string[]> {
  const rows = await query(
    `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const applied = new Set(rows.map((row) => row.migration_name));
  return migrations.map((m) => m.name).filter((name) => !applied.has(name));
}

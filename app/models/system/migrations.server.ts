import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

/**
 * Applies the SQL migrations in prisma/migrations and records them in
 * `_prisma_migrations` exactly as `prisma migrate deploy` does (same table, same
 * SHA-256 checksum of the file, same advisory lock), so either tool sees the
 * other's work as applied. See docs/decisions/002-migrations-as-sql.md.
 *
 * Then the database functions: each PL/pgSQL function has one source file,
 * prisma/sql/functions/<name>.sql, re-applied whenever its checksum changes (or after
 * any migration ran), as Flyway's repeatable migrations are, and recorded in
 * `_database_functions`. See docs/decisions/016-one-source-per-database-function.md.
 */
export const MIGRATIONS_DIR = path.resolve("prisma/migrations");
export const FUNCTIONS_DIR = path.resolve("prisma/sql/functions");

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

/** The database functions' sources, by name (the file's name is the function's). */
export function readFunctions(dir = FUNCTIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".sql"))
    .sort()
    .map((file) => {
      const bytes = readFileSync(path.join(dir, file));
      return { name: file.slice(0, -".sql".length), sql: bytes.toString("utf8"), checksum: createHash("sha256").update(bytes).digest("hex") };
    });
}

const CREATE_FUNCTIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_database_functions" (
    "name"       TEXT PRIMARY KEY NOT NULL,
    "checksum"   VARCHAR(64) NOT NULL,
    "applied_at" TIMESTAMPTZ NOT NULL DEFAULT now()
)`;

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

/**
 * Applies one function's source in a transaction. Overloads of that name that are not
 * trigger functions are dropped first, so that a file may change the function's
 * arguments or result; a trigger function keeps its identity (its triggers depend on it)
 * and is replaced in place.
 */
async function applyFunction(client: pg.Client, source: Migration): Promise<void> {
  await client.query("BEGIN");
  try {
    const { rows } = await client.query<{ signature: string }>(
      `SELECT p.oid::regprocedure::text AS signature FROM pg_proc p
       WHERE p.pronamespace = current_schema()::regnamespace AND p.proname = $1 AND p.prorettype <> 'trigger'::regtype`,
      [source.name],
    );
    for (const row of rows) await client.query(`DROP FUNCTION ${row.signature}`);
    await client.query(source.sql);
    const defined = await client.query(`SELECT 1 FROM pg_proc WHERE pronamespace = current_schema()::regnamespace AND proname = $1`, [source.name]);
    if (defined.rowCount === 0) throw new Error(`the file does not define a function named ${source.name}`);
    await client.query(
      `INSERT INTO "_database_functions" (name, checksum) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = now()`,
      [source.name, source.checksum],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw new MigrationError(`Database function ${source.name} failed: ${(error as Error).message}`);
  }
}

/**
 * Applies every pending migration, then every function whose source changed (all of
 * them after a migration ran: it may have dropped or replaced one); returns the names of
 * the migrations applied. Safe to run from several processes at once.
 */
export async function migrate(databaseUrl: string, migrations = readMigrations(), functions = readFunctions()): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK]);
    await client.query(CREATE_TABLE);
    const applied = new Map((await appliedRows(client)).map((row) => [row.migration_name, row]));
    for (const row of applied.values()) {
      if (row.finished_at === null) {
        throw new MigrationError(`Migration ${row.migration_name} failed earlier and was not rolled back; resolve it by hand before starting`);
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
        await client.query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`, [
          id,
          migration.checksum,
          migration.name,
        ]);
        await client.query(migration.sql);
        await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new MigrationError(`Migration ${migration.name} failed: ${(error as Error).message}`);
      }
      done.push(migration.name);
    }
    await client.query(CREATE_FUNCTIONS_TABLE);
    const appliedFunctions = new Map(
      (await client.query<{ name: string; checksum: string }>(`SELECT name, checksum FROM "_database_functions"`)).rows.map((row) => [row.name, row.checksum]),
    );
    for (const source of functions) {
      if (done.length > 0 || appliedFunctions.get(source.name) !== source.checksum) await applyFunction(client, source);
    }
    return done;
  } finally {
    await client.query("SELECT pg_advisory_unlock_all()").catch(() => {});
    await client.end();
  }
}

/**
 * Names of migrations on disk that the database has not applied, and of functions whose
 * applied source differs from the file (`function <name>`); empty when up to date.
 */
export async function pendingMigrations(
  query: (sql: string) => Promise<{ name: string; checksum: string }[]>,
  migrations = readMigrations(),
  functions = readFunctions(),
): Promise<string[]> {
  const rows = await query(`SELECT migration_name AS name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`);
  const applied = new Set(rows.map((row) => row.name));
  const functionRows = await query(`SELECT name, checksum FROM "_database_functions"`);
  const appliedFunctions = new Map(functionRows.map((row) => [row.name, row.checksum]));
  return [
    ...migrations.map((m) => m.name).filter((name) => !applied.has(name)),
    ...functions.filter((f) => appliedFunctions.get(f.name) !== f.checksum).map((f) => `function ${f.name}`),
  ];
}

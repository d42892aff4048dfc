import { createHash } from "node:crypto";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import { migrate, MigrationError, pendingMigrations, readFunctions, readMigrations } from "~/models/system/migrations.server";
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

  it("drops the triggers on entries that ADR 087's withdrawn trial left behind", async () => {
    const url = await emptyDatabase();
    const drop = "20261128072000_drop_trial_entry_triggers";
    const trial = {
      name: "read_model_entries_changed",
      checksum: "the trial's",
      sql: `CREATE OR REPLACE FUNCTION "read_model_entries_changed"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
CREATE OR REPLACE TRIGGER "entries_read_model_insert" AFTER INSERT ON "entries" FOR EACH STATEMENT EXECUTE FUNCTION "read_model_entries_changed"();`,
    };
    await migrate(
      url,
      readMigrations().filter((m) => m.name < drop),
      [...readFunctions(), trial],
    );
    const left = () =>
      query(
        url,
        `SELECT tgname AS name FROM pg_trigger WHERE tgrelid = '"entries"'::regclass AND tgname LIKE 'entries_read_model_%'
         UNION ALL SELECT proname FROM pg_proc WHERE proname = 'read_model_entries_changed'`,
      );
    expect(await left()).toHaveLength(2);
    await migrate(url);
    expect(await left()).toEqual([]);
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

describe("the move to cash and bonus coins (20261124010100_cash_and_bonus, ADR 017)", () => {
  it("keeps as cash only what was paid in or won, less what was asked for, and makes tickets already bought bonus", async () => {
    const url = await emptyDatabase();
    const before = readMigrations().filter((m) => m.name < "20261124010000");
    await migrate(url, before, []);
    // A buyer of package_4 ($24.99, 5,000 coins) with 1,000 welcome coins, who won 300 coins,
    // asked to withdraw 200 (pending) and holds a 10-coin ticket in a raffle still running; and
    // a player who only ever had welcome coins.
    await query(
      url,
      `WITH u AS (
         INSERT INTO users (id, email, updated_at) VALUES
           ('00000000-0000-4000-8000-0000000000b1', 'buyer@test.local', now()),
           ('00000000-0000-4000-8000-0000000000b2', 'welcome@test.local', now()) RETURNING id
       ), a AS (
         INSERT INTO ledger_accounts (id, kind, user_id) VALUES
           ('00000000-0000-4000-8000-0000000000a1', 'user', '00000000-0000-4000-8000-0000000000b1'),
           ('00000000-0000-4000-8000-0000000000a4', 'withdrawal_hold', '00000000-0000-4000-8000-0000000000b1'),
           ('00000000-0000-4000-8000-0000000000a2', 'user', '00000000-0000-4000-8000-0000000000b2') RETURNING id
       ), r AS (
         INSERT INTO raffles (id, kind, tier, entry_price, starts_at, ends_at, seed_hash, seed, ticket_count, player_count) VALUES
           ('00000000-0000-4000-8000-0000000000c1', 'regular', 'micro', 10, now() - interval '1 minute', now() + interval '1 hour', 'h', 's', 1, 1),
           ('00000000-0000-4000-8000-0000000000c2', 'regular', 'micro', 300, now() - interval '2 hours', now() - interval '1 hour', 'h', 's', 0, 0)
         RETURNING id
       )
       SELECT 1`,
    );
    await query(
      url,
      `INSERT INTO ledger_accounts (id, kind, raffle_id) VALUES ('00000000-0000-4000-8000-0000000000a3', 'raffle_pot', '00000000-0000-4000-8000-0000000000c1');
       UPDATE raffles SET status = 'completed', winner_id = '00000000-0000-4000-8000-0000000000b1', winning_ticket = 0, prize = 300, rake = 300, final_pot = 600
         WHERE id = '00000000-0000-4000-8000-0000000000c2';
       INSERT INTO payments (user_id, provider, provider_payment_id, purpose, product, amount_cents, status, coins_credited)
         VALUES ('00000000-0000-4000-8000-0000000000b1', 'demo', 'pi_1', 'coins', 'package_4', 2499, 'succeeded', 5000);
       INSERT INTO withdrawals (user_id, amount, method, destination_masked)
         VALUES ('00000000-0000-4000-8000-0000000000b1', 200, 'venmo', 'Venmo ••••ou');
       INSERT INTO entries (raffle_id, user_id, position) VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000b1', 0);`,
    );
    // The balances those movements left: 5,000 + 1,000 + 300 - 200 - 10 and 1,000.
    const houseAccount = `(SELECT id FROM ledger_accounts WHERE kind = 'promotions')`;
    await query(
      url,
      `WITH t AS (INSERT INTO ledger_transactions (kind, reference, user_id) VALUES ('bonus', 'setup:buyer', '00000000-0000-4000-8000-0000000000b1') RETURNING id)
       INSERT INTO ledger_postings (transaction_id, account_id, amount)
       SELECT t.id, x.account, x.amount FROM t, (VALUES
         (${houseAccount}, -6290::bigint), ('00000000-0000-4000-8000-0000000000a1'::uuid, 6080::bigint), ('00000000-0000-4000-8000-0000000000a3'::uuid, 10::bigint),
         ('00000000-0000-4000-8000-0000000000a4'::uuid, 200::bigint)) AS x(account, amount)`,
    );
    await query(
      url,
      `WITH t AS (INSERT INTO ledger_transactions (kind, reference, user_id) VALUES ('bonus', 'setup:welcome', '00000000-0000-4000-8000-0000000000b2') RETURNING id)
       INSERT INTO ledger_postings (transaction_id, account_id, amount)
       SELECT t.id, x.account, x.amount FROM t, (VALUES (${houseAccount}, -1000::bigint), ('00000000-0000-4000-8000-0000000000a2'::uuid, 1000::bigint)) AS x(account, amount)`,
    );

    await migrate(url);
    const balances = await query<{ email: string; kind: string; balance: string }>(
      url,
      `SELECT u.email, a.kind::text AS kind, a.balance::text AS balance FROM ledger_accounts a JOIN users u ON u.id = a.user_id ORDER BY u.email, a.kind`,
    );
    // The pending request (made under the old rule) is refused and its 200 held come back;
    // then cash: 2,499 paid + 300 won = 2,799 of the buyer's 6,280; the rest is bonus.
    expect(balances).toEqual([
      { email: "buyer@test.local", kind: "user", balance: "2799" },
      { email: "buyer@test.local", kind: "user_bonus", balance: "3481" },
      { email: "buyer@test.local", kind: "withdrawal_hold", balance: "0" },
      { email: "welcome@test.local", kind: "user", balance: "0" },
      { email: "welcome@test.local", kind: "user_bonus", balance: "1000" },
    ]);
    const pots = await query(url, `SELECT kind::text AS kind, balance::text AS balance FROM ledger_accounts WHERE raffle_id IS NOT NULL ORDER BY kind`);
    expect(pots).toEqual([
      { kind: "raffle_pot", balance: "0" },
      { kind: "raffle_pot_bonus", balance: "10" },
    ]);
    expect(await query(url, `SELECT cash::text AS cash, bonus::text AS bonus FROM entries`)).toEqual([{ cash: "0", bonus: "10" }]);
    expect(await query(url, `SELECT count(*)::int AS n FROM ledger_transactions WHERE kind = 'reclassification'`)).toEqual([{ n: 3 }]);
    expect(await query(url, `SELECT status::text AS status, reject_reason AS reason FROM withdrawals`)).toEqual([
      { status: "rejected", reason: "Requested before withdrawable cash and bonus coins were separated: please ask again" },
    ]);
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
    const rows = await query<{ email: string; username: string | null; username_key: string | null; id: string }>(
      url,
      `SELECT id::text, email, username, username_key FROM users ORDER BY email`,
    );
    expect(rows.map((r) => [r.username, r.username_key])).toEqual([
      ["DemoPlayer", "dernoplayer"],
      ["DemoPIayer", `dernoplayer#${rows[1]!.id}`],
      ["Lucky_7", "lucky_7"],
      [null, null],
    ]);
  });
});

describe("movements name their player (20261129150000_movements_name_their_player, ADR 092)", () => {
  it("stops on a database holding a posting to a player's account under a transaction that does not name the player", async () => {
    const url = await emptyDatabase();
    const migration = "20261129150000_movements_name_their_player";
    await migrate(
      url,
      readMigrations().filter((m) => m.name < migration),
      [],
    );
    const promotions = `(SELECT id FROM ledger_accounts WHERE kind = 'promotions')`;
    await query(
      url,
      `WITH u AS (INSERT INTO users (id, email, updated_at) VALUES ('00000000-0000-4000-8000-0000000000b1', 'p@test.local', now()) RETURNING id)
       INSERT INTO ledger_accounts (id, kind, user_id) SELECT '00000000-0000-4000-8000-0000000000a1', 'user_bonus', id FROM u`,
    );
    const post = (reference: string, userId: string | null) =>
      query(
        url,
        `WITH t AS (INSERT INTO ledger_transactions (kind, reference, user_id) VALUES ('bonus', $1, $2::uuid) RETURNING id)
         INSERT INTO ledger_postings (transaction_id, account_id, amount)
         SELECT t.id, x.account, x.amount FROM t, (VALUES (${promotions}, -5::bigint), ('00000000-0000-4000-8000-0000000000a1'::uuid, 5::bigint)) AS x(account, amount)`,
        [reference, userId],
      );
    await post("named", "00000000-0000-4000-8000-0000000000b1");
    await post("unnamed", null);
    await expect(migrate(url)).rejects.toThrow(/1 ledger postings to a player's account belong to a transaction that does not name the player/);
    expect((await appliedRows(url)).map((r) => r.migration_name)).not.toContain(migration);
  });
});

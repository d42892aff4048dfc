import { startEmbeddedPostgres } from "../../server/embedded-postgres";
import { withClient } from "./test-database";

/**
 * Reading a server process's database from a test: its ledger (to prove nothing moved)
 * and a dump of every table (to scan for data that must never be stored).
 */

/** The URL of the database of a server running on `dataDir`'s embedded PostgreSQL (tests/support/server-process.ts). */
export async function runningDatabaseUrl(dataDir: string, database = "raffle"): Promise<string> {
  // A cluster that is already running is reused, not started again.
  const server = await startEmbeddedPostgres({ dir: `${dataDir}/postgres` });
  return server.url(database);
}

/** Every account's balance and the number of ledger transactions. */
export function ledgerAt(url: string) {
  return withClient(url, async (client) => {
    const accounts = await client.query<{ id: string; balance: string }>("SELECT id::text, balance::text FROM ledger_accounts ORDER BY id");
    const transactions = await client.query<{ n: string }>("SELECT count(*)::text AS n FROM ledger_transactions");
    return { transactions: Number(transactions.rows[0]!.n), balances: Object.fromEntries(accounts.rows.map((a) => [a.id, a.balance])) };
  });
}

/** Every row of every table in the public schema, one JSON line per row, each line prefixed by its table. */
export function dumpAllTables(url: string): Promise<string> {
  return withClient(url, async (client) => {
    const tables = await client.query<{ name: string }>(
      "SELECT quote_ident(table_name) AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1",
    );
    const lines: string[] = [];
    for (const { name } of tables.rows) {
      const rows = await client.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM ${name} t`);
      for (const { row } of rows.rows) lines.push(`${name}\t${row}`);
    }
    return lines.join("\n");
  });
}

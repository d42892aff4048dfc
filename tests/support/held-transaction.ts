import pg from "pg";
import { testDatabaseUrl } from "./database-setup";

/**
 * A transaction on a connection of its own, held open while a test looks at what waits for
 * it (a draw, an entry); `end` rolls it back.
 */
export async function heldTransaction() {
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  await client.query("BEGIN");
  return {
    client,
    async end() {
      await client.query("ROLLBACK");
      await client.end();
    },
  };
}

import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import schedule from "../../prisma/schedule.json" with { type: "json" };
import type { Player } from "../fixtures";

/**
 * The reference servers' data (bench/reference/README.md): a database of its own on the
 * same PostgreSQL, holding the bench players' sessions (the same cookies sign them in) and
 * balances, and raffles like the app's: one hot raffle and one per series of the schedule.
 */
export type ReferenceRaffles = { hot: string; everyTier: string[] };

export async function prepareEntriesReference({ url, appUrl, players }: { url: string; appUrl: string; players: Player[] }): Promise<ReferenceRaffles> {
  const app = new pg.Client({ connectionString: appUrl });
  const reference = new pg.Client({ connectionString: url });
  await app.connect();
  await reference.connect();
  try {
    await reference.query(readFileSync(path.join(import.meta.dirname, "schema.sql"), "utf8"));
    const sessions = await app.query<{ token_hash: string; user_id: string; expires_at: Date }>(
      "SELECT token_hash, user_id, expires_at FROM sessions WHERE user_id = ANY($1::uuid[])",
      [players.map((p) => p.id)],
    );
    for (const s of sessions.rows) {
      await reference.query("INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, $3)", [s.token_hash, s.user_id, s.expires_at]);
    }
    for (const p of players) await reference.query("INSERT INTO balances (user_id, coins) VALUES ($1, 1000000000)", [p.id]);
    const open = async (price: number) => {
      const id = randomUUID();
      await reference.query("INSERT INTO raffles (id, entry_price, ends_at) VALUES ($1, $2, now() + interval '1 hour')", [id, price]);
      return id;
    };
    const hot = await open(5);
    const everyTier: string[] = [];
    for (const series of schedule.series) everyTier.push(await open(series.entryPrice));
    await reference.query("VACUUM ANALYZE");
    return { hot, everyTier };
  } finally {
    await app.end();
    await reference.end();
  }
}

// The reference server for the entries figure (issue 22, bench/reference/README.md):
// Express + pg, an entry done the plain way. Per POST: the session by its cookie's hash,
// then one transaction that debits the player's balance row (locking it), adds the
// ticket and its ledger row, and adds the price to the raffle's pot.
import cluster from "node:cluster";
import { createHash } from "node:crypto";
import express from "express";
import pg from "pg";
import { createCookie } from "@remix-run/node";

const workers = Number(process.env.WEB_CONCURRENCY ?? 1);

if (cluster.isPrimary && workers > 1) {
  for (let i = 0; i < workers; i++) cluster.fork();
  process.on("SIGTERM", () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill("SIGTERM");
    process.exit(0);
  });
} else {
  // The app's pool per process (app/models/db.server.ts) and its session cookie.
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const cookie = createCookie(process.env.SESSION_COOKIE_NAME ?? "__session", { secrets: [process.env.SESSION_SECRET] });
  const hash = (token) => createHash("sha256").update(token).digest("hex");

  const app = express();
  app.disable("x-powered-by");
  app.post("/enter/:raffleId", async (req, res) => {
    const token = await cookie.parse(req.headers.cookie ?? null);
    if (typeof token !== "string") return res.status(401).json({ error: "Sign in first." });
    const session = await pool.query("SELECT user_id FROM sessions WHERE token_hash = $1 AND expires_at > now()", [hash(token)]);
    const userId = session.rows[0]?.user_id;
    if (!userId) return res.status(401).json({ error: "Sign in first." });
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const raffle = await client.query(
        "UPDATE raffles SET pot = pot + entry_price, ticket_count = ticket_count + 1 WHERE id = $1 AND ends_at > now() RETURNING entry_price, ticket_count - 1 AS position",
        [req.params.raffleId],
      );
      if (!raffle.rows[0]) {
        await client.query("ROLLBACK");
        return res.status(409).json({ error: "This raffle is closed." });
      }
      const { entry_price: price, position } = raffle.rows[0];
      const debit = await client.query("UPDATE balances SET coins = coins - $2 WHERE user_id = $1 AND coins >= $2 RETURNING coins", [userId, price]);
      if (!debit.rows[0]) {
        await client.query("ROLLBACK");
        return res.status(409).json({ error: "Not enough coins." });
      }
      await client.query("INSERT INTO tickets (raffle_id, user_id, position) VALUES ($1, $2, $3)", [req.params.raffleId, userId, position]);
      await client.query("INSERT INTO ledger (user_id, raffle_id, amount) VALUES ($1, $2, $3)", [userId, req.params.raffleId, -price]);
      await client.query("COMMIT");
      res.json({ position, balance: debit.rows[0].coins });
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      res.status(500).json({ error: String(error) });
    } finally {
      client.release();
    }
  });
  const server = app.listen(Number(process.env.PORT), "127.0.0.1");
  // Stopped between phases: a request still running when the loader hangs up would find the
  // pool ended, so the pool waits for the requests' own ends and the process exits after.
  process.on("SIGTERM", () => server.close(() => setTimeout(() => pool.end().then(() => process.exit(0)), 1_000)));
}

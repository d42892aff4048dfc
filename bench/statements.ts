import { writeFileSync } from "node:fs";
import pg from "pg";

/**
 * With BENCH_STATEMENTS=<path> (and the cluster started with POSTGRES_SETTINGS=
 * shared_preload_libraries=pg_stat_statements), what PostgreSQL ran from this call until
 * `write(name)`: statements by total time and the tables' scans, to <path>-<name>.tsv. The
 * crowd writes each run (where PostgreSQL's share of a player goes), the draws each figure
 * (add pg_stat_statements.track=all to see the statements inside functions and triggers).
 */
export async function statementsFrom(databaseUrl: string) {
  const file = process.env.BENCH_STATEMENTS;
  if (!file) return undefined;
  const query = async <T extends object>(sql: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query<T>(sql)).rows;
    } finally {
      await client.end();
    }
  };
  // The tables' scans too: a plan that reads a whole growing table shows here run by run.
  const tables = () =>
    query<Record<"name" | "seq_scan" | "seq_tup_read" | "idx_scan" | "live", string>>(
      `SELECT relname AS name, seq_scan::text, seq_tup_read::text, coalesce(idx_scan, 0)::text AS idx_scan, n_live_tup::text AS live FROM pg_stat_user_tables`,
    );
  await query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  await query("SELECT pg_stat_statements_reset()");
  const before = new Map((await tables()).map((t) => [t.name, t]));
  return {
    async write(name: string) {
      // Planning counts only with pg_stat_statements.track_planning=on (a statement in a
      // function may be planned again at every call).
      const rows = await query<Record<"ms" | "plan_ms" | "calls" | "mean_ms" | "rows" | "query", string>>(
        `SELECT round(total_exec_time)::text AS ms, round(total_plan_time)::text AS plan_ms, calls::text,
                coalesce(round((total_exec_time / nullif(calls, 0))::numeric, 3)::text, '') AS mean_ms, rows::text, regexp_replace(query, '\\s+', ' ', 'g') AS query
           FROM pg_stat_statements ORDER BY total_exec_time + total_plan_time DESC LIMIT 60`,
      );
      const scans = (await tables())
        .map((t) => {
          const b = before.get(t.name);
          const delta = (k: "seq_scan" | "seq_tup_read" | "idx_scan") => Number(t[k]) - Number(b?.[k] ?? 0);
          return { name: t.name, seqScans: delta("seq_scan"), seqRows: delta("seq_tup_read"), indexScans: delta("idx_scan"), live: t.live };
        })
        .sort((a, b) => b.seqRows - a.seqRows);
      // Statements the app sent (not those run inside functions): each is a round trip.
      const sent = await query<Record<"calls" | "ms" | "query", string>>(
        `SELECT calls::text, round(total_exec_time)::text AS ms, regexp_replace(query, '\\s+', ' ', 'g') AS query
           FROM pg_stat_statements WHERE toplevel ORDER BY pg_stat_statements.calls DESC LIMIT 40`,
      );
      const lines = [
        "ms\tplan_ms\tcalls\tmean_ms\trows\tquery",
        ...rows.map((r) => [r.ms, r.plan_ms, r.calls, r.mean_ms, r.rows, r.query.slice(0, 400)].join("\t")),
        "",
        "table\tseq_scans\tseq_rows\tindex_scans\tlive_rows",
        ...scans.map((t) => [t.name, t.seqScans, t.seqRows, t.indexScans, t.live].join("\t")),
        "",
        `round trips\t${sent.reduce((sum, r) => sum + Number(r.calls), 0)} (the 40 most called)`,
        "calls\tms\tquery",
        ...sent.map((r) => [r.calls, r.ms, r.query.slice(0, 300)].join("\t")),
      ];
      writeFileSync(`${file}-${name}.tsv`, lines.join("\n") + "\n");
    },
  };
}

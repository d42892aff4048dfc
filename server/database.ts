import { connectDb, disconnectDb } from "~/models/db.server";
import { migrate } from "~/models/system/migrations.server";
import { dataPath } from "../app/infra/data-dir.server";
import { ensureDatabase, startEmbeddedPostgres } from "./embedded-postgres";
import type { Env } from "../app/infra/env.server";

export type Database = {
  url: string;
  /** True when this process runs on the embedded PostgreSQL (no DATABASE_URL). */
  embedded: boolean;
  /** The embedded cluster's folder (under DATA_DIR/postgres, or where the PostgreSQL user can reach it). */
  embeddedDataDir?: string;
  close: () => Promise<void>;
};

const EMBEDDED_DATABASE = "raffle";

/**
 * Opens the database: DATABASE_URL when set, otherwise the embedded PostgreSQL
 * under DATA_DIR/postgres. Applies pending migrations and connects the Prisma client.
 */
export async function openDatabase(env: Env, log: (line: string) => void): Promise<Database> {
  let url = env.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let embeddedDataDir: string | undefined;
  if (url === undefined) {
    const server = await startEmbeddedPostgres({ dir: dataPath("postgres"), log });
    await ensureDatabase(server.url("postgres"), EMBEDDED_DATABASE);
    url = server.url(EMBEDDED_DATABASE);
    stopEmbedded = server.stop;
    embeddedDataDir = server.dataDir;
  }
  try {
    await migrate(url);
  } catch (error) {
    await stopEmbedded?.();
    throw error;
  }
  connectDb(url);
  return {
    url,
    embedded: stopEmbedded !== undefined,
    embeddedDataDir,
    close: async () => {
      await disconnectDb();
      await stopEmbedded?.();
    },
  };
}

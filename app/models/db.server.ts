import { remember } from "@epic-web/remember";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient, type Prisma } from "~/generated/prisma/client";
import { statementNames } from "./statement-names.server";

/** A client inside a database transaction: models that take one join the caller's work. */
export type Tx = Prisma.TransactionClient;

/**
 * The one Prisma client of this process. server.ts (or a test's setup) connects it
 * once the database URL is known; the Remix build and server.ts may each carry a
 * copy of this module, so the client is remembered once per process (remember). It is
 * connected and disconnected, so what is remembered is the place that holds it.
 */
const connection = () => remember("raffle:db", (): { client?: PrismaClient; url?: string; pool?: pg.Pool } => ({}));

export function connectDb(databaseUrl: string, { poolSize = 10 } = {}): PrismaClient {
  const held = connection();
  if (held.client) return held.client;
  held.url = databaseUrl;
  // The pool is ours (closed with the client) so that /metrics can read how busy it is.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  held.pool = pool;
  // Named statements: parsed and planned once a connection, not at every query (ADR 106).
  const adapter = new PrismaPg(pool, { disposeExternalPool: true, statementNameGenerator: statementNames() });
  // Bursts of entries queue for a connection rather than failing after Prisma's 2 s default.
  held.client = new PrismaClient({ adapter, transactionOptions: { maxWait: 15_000, timeout: 15_000 } });
  return held.client;
}

export function db(): PrismaClient {
  const client = connection().client;
  if (!client) throw new Error("The database is not connected yet (connectDb was not called)");
  return client;
}

/** The connected database's URL, for the few things that need their own connection (LISTEN). */
export function connectedDatabaseUrl(): string {
  const url = connection().url;
  if (!url) throw new Error("The database is not connected yet (connectDb was not called)");
  return url;
}

/** The connection pool's use, or undefined before connectDb. */
export function poolStats(): { total: number; idle: number; waiting: number; max: number } | undefined {
  const pool = connection().pool;
  if (!pool) return undefined;
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 };
}

export async function disconnectDb(): Promise<void> {
  const held = connection();
  const client = held.client;
  held.client = undefined;
  held.pool = undefined;
  await client?.$disconnect();
}

export type { PrismaClient };

/** Whether a database error is a unique-constraint violation (however the driver adapter reports it). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; meta?: { code?: string; driverAdapterError?: { cause?: { kind?: string } } }; message?: string };
  return (
    e?.code === "P2002" ||
    e?.meta?.code === "23505" ||
    e?.meta?.driverAdapterError?.cause?.kind === "UniqueConstraintViolation" ||
    /UniqueConstraintViolation|23505|unique constraint/i.test(e?.message ?? "")
  );
}

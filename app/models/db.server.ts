import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "~/generated/prisma/client";

/**
 * The one Prisma client of this process. server.ts (or a test's setup) connects it
 * once the database URL is known; the Remix build and server.ts may each carry a
 * copy of this module, so the client lives on globalThis.
 */
const globalForDb = globalThis as unknown as { __raffleDb?: PrismaClient; __raffleDbUrl?: string };

export function connectDb(databaseUrl: string, { poolSize = 10 } = {}): PrismaClient {
  if (globalForDb.__raffleDb) return globalForDb.__raffleDb;
  globalForDb.__raffleDbUrl = databaseUrl;
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: poolSize });
  // Bursts of entries queue for a connection rather than failing after Prisma's 2 s default.
  globalForDb.__raffleDb = new PrismaClient({ adapter, transactionOptions: { maxWait: 15_000, timeout: 15_000 } });
  return globalForDb.__raffleDb;
}

export function db(): PrismaClient {
  const client = globalForDb.__raffleDb;
  if (!client) throw new Error("The database is not connected yet (connectDb was not called)");
  return client;
}

/** The connected database's URL, for the few things that need their own connection (LISTEN). */
export function connectedDatabaseUrl(): string {
  const url = globalForDb.__raffleDbUrl;
  if (!url) throw new Error("The database is not connected yet (connectDb was not called)");
  return url;
}

export async function disconnectDb(): Promise<void> {
  const client = globalForDb.__raffleDb;
  globalForDb.__raffleDb = undefined;
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

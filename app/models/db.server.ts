import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "~/generated/prisma/client";

/**
 * The one Prisma client of this process. server.ts (or a test's setup) connects it
 * once the database URL is known; the Remix build and server.ts may each carry a
 * copy of this module, so the client lives on globalThis.
 */
const globalForDb = globalThis as unknown as { __raffleDb?: PrismaClient };

export function connectDb(databaseUrl: string, { poolSize = 10 } = {}): PrismaClient {
  if (globalForDb.__raffleDb) return globalForDb.__raffleDb;
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

export async function disconnectDb(): Promise<void> {
  const client = globalForDb.__raffleDb;
  globalForDb.__raffleDb = undefined;
  await client?.$disconnect();
}

export type { PrismaClient };

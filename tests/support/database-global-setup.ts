import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrate } from "~/models/system/migrations.server";
import { ensureDatabase, startEmbeddedPostgres } from "../../server/embedded-postgres";
import { removeDataDir } from "./server-process";
import { claimTestFolder, sweepAbandonedTestData, TEST_DATA_ROOT } from "./test-data";
import { databaseUrl, dropDatabase, withClient } from "./test-database";

/**
 * Once per test run: a PostgreSQL server (DATABASE_URL's, or an embedded one of this run's
 * under .data/test-runs/) and a freshly migrated template database. Each test file then
 * works in its own clone of the template (database-setup.ts). When the run ends, passed or
 * failed, its databases are dropped and its cluster deleted (wherever the root fallback put
 * it); what a killed run left is swept by the next (tests/support/test-data.ts).
 */
export default async function setup(project: TestProject) {
  let adminUrl: string;
  let stopServer = async () => {};
  await sweepAbandonedTestData();
  if (process.env.DATABASE_URL) {
    adminUrl = process.env.DATABASE_URL;
  } else {
    const folder = path.join(TEST_DATA_ROOT, "test-runs", `vitest-${process.pid}`);
    await claimTestFolder(folder);
    const server = await startEmbeddedPostgres({ dir: path.join(folder, "postgres") });
    adminUrl = server.url("postgres");
    // Vitest exits on SIGINT or SIGTERM without its teardown: the database is told to stop
    // (stop() signals it at once), and the next run sweeps the folder.
    const onSignal = () => void server.stop();
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, onSignal);
    stopServer = async () => {
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.off(signal, onSignal);
      await server.stop();
      removeDataDir(folder);
    };
  }
  const template = `raffle_test_${process.pid}_${Date.now().toString(36)}`;
  const dropAll = async () => {
    // The template and every clone of it, a crashed file's too.
    await withClient(adminUrl, async (client) => {
      const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [`${template}%`]);
      for (const { datname } of rows.filter((row) => row.datname !== template)) await dropDatabase(adminUrl, datname);
    });
    await dropDatabase(adminUrl, template);
  };
  const teardown = async () => {
    try {
      await dropAll();
    } finally {
      await stopServer();
    }
  };
  try {
    await ensureDatabase(adminUrl, template);
    await migrate(databaseUrl(adminUrl, template));
  } catch (error) {
    await teardown();
    throw error;
  }
  project.provide("databaseAdminUrl", adminUrl);
  project.provide("templateDatabase", template);
  return teardown;
}

import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrate } from "~/models/migrations.server";
import { ensureDatabase, startEmbeddedPostgres } from "~/infra/embedded-postgres.server";
import { databaseUrl, dropDatabase, withClient } from "./test-database";

/**
 * Once per test run: a PostgreSQL server (DATABASE_URL's, or the embedded one under
 * .data/test-postgres) and a freshly migrated template database. Each test file then
 * works in its own clone of the template (database-setup.ts).
 */
export default async function setup(project: TestProject) {
  let adminUrl: string;
  let stopServer = async () => {};
  if (process.env.DATABASE_URL) {
    adminUrl = process.env.DATABASE_URL;
  } else {
    const server = await startEmbeddedPostgres({ dir: path.resolve(".data/test-postgres") });
    adminUrl = server.url("postgres");
    stopServer = server.stop;
  }
  const template = `raffle_test_${process.pid}_${Date.now().toString(36)}`;
  await ensureDatabase(adminUrl, template);
  await migrate(databaseUrl(adminUrl, template));
  project.provide("databaseAdminUrl", adminUrl);
  project.provide("templateDatabase", template);

  return async () => {
    // Drop the template and any clone a crashed file left behind.
    await withClient(adminUrl, async (client) => {
      const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [`${template}%`]);
      for (const { datname } of rows.filter((row) => row.datname !== template)) await dropDatabase(adminUrl, datname);
    });
    await dropDatabase(adminUrl, template);
    await stopServer();
  };
}

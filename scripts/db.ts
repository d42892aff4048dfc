/**
 * `npm run db:migrate` applies pending migrations; `npm run db:seed` also seeds the
 * raffle schedule (and the demo users in demo mode). Both use DATABASE_URL, or the
 * embedded PostgreSQL under DATA_DIR when it is unset. `npm run db:drop` deletes DATA_DIR
 * and its embedded cluster (wherever the root fallback put it), after a confirmation or
 * with `-- --yes`; a database at DATABASE_URL is never touched.
 */
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { dropLocalData, localDataFolders } from "~/infra/cluster-cleanup.server";
import { seed } from "../server/seed";
import { openDatabase } from "../server/database";
import { ConfigError, getEnv } from "~/infra/env.server";

const command = process.argv[2];
if (command !== "migrate" && command !== "seed" && command !== "drop") {
  process.stderr.write("usage: tsx scripts/db.ts migrate|seed|drop [--yes]\n");
  process.exit(64);
}

async function drop(): Promise<number> {
  const dataDir = path.resolve(process.env.DATA_DIR || ".data");
  const folders = localDataFolders(dataDir);
  if (folders.length === 0) {
    process.stdout.write(`nothing to delete: ${dataDir} does not exist\n`);
    return 0;
  }
  const what = `delete ${folders.join(" and ")} (the local database, demo secrets and mail)`;
  if (!process.argv.includes("--yes")) {
    if (!process.stdin.isTTY) {
      process.stderr.write(`db:drop would ${what}: run \`npm run db:drop -- --yes\` to confirm\n`);
      return 1;
    }
    const prompt = createInterface({ input: process.stdin, output: process.stdout });
    const answer = await prompt.question(`${what[0]!.toUpperCase()}${what.slice(1)}? [y/N] `);
    prompt.close();
    if (!/^y(es)?$/i.test(answer.trim())) {
      process.stdout.write("nothing deleted\n");
      return 1;
    }
  }
  const result = dropLocalData(dataDir);
  if ("refused" in result) {
    process.stderr.write(`db:drop: nothing deleted: ${result.refused}\n`);
    return 1;
  }
  process.stdout.write(`deleted ${result.dropped.join(" and ")}\n`);
  return 0;
}

if (command === "drop") process.exit(await drop());

try {
  const env = getEnv();
  const database = await openDatabase(env, () => {});
  try {
    process.stdout.write("migrations applied\n");
    if (command === "seed") {
      const result = await seed({ demoUsers: env.SEED_DEMO_USERS ?? env.demoMode });
      process.stdout.write(`seeded: ${result.series} raffle series, ${result.demoUsers} demo users\n`);
    }
  } finally {
    await database.close();
  }
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? "" : "db: "}${(error as Error).message}\n`);
  process.exit(1);
}

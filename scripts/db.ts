/**
 * `npm run db:migrate` applies pending migrations; `npm run db:seed` also seeds the
 * raffle schedule (and the demo users in demo mode). Both use DATABASE_URL, or the
 * embedded PostgreSQL under DATA_DIR when it is unset.
 */
import { seed } from "~/infra/seed.server";
import { openDatabase } from "~/infra/database.server";
import { ConfigError, getEnv } from "~/infra/env.server";

const command = process.argv[2];
if (command !== "migrate" && command !== "seed") {
  process.stderr.write("usage: tsx scripts/db.ts migrate|seed\n");
  process.exit(64);
}

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

import { openDatabase, type Database } from "~/infra/database.server";
import { ConfigError, getEnv, type Env } from "~/infra/env.server";
import { getLogger } from "~/infra/logger.server";
import { startMailSender } from "~/infra/mail/outbox.server";
import { startPaymentSweep } from "~/services/payments/sweep.server";
import { EmbeddedPostgresError } from "~/infra/postgres-user.server";
import { startScheduler, type Scheduler } from "~/services/scheduler.server";
import { seed } from "~/infra/seed.server";

/** Everything, database included, is closed within this long of SIGTERM or SIGINT. */
const SHUTDOWN_DEADLINE_MS = 9_000;

/** The configuration, or the process exits with one line saying what is wrong (EX_CONFIG). */
export function loadEnv(): Env {
  try {
    return getEnv();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

/** Whatever is still running SHUTDOWN_DEADLINE_MS after shutdown began, the process exits (code 1). */
export function exitAtDeadline() {
  const deadline = setTimeout(() => {
    getLogger().error("shutdown deadline passed; exiting");
    process.exit(1);
  }, SHUTDOWN_DEADLINE_MS);
  deadline.unref();
}

/** Opens the database (starting the embedded one when there is no DATABASE_URL), or exits. */
export async function openOrExit(env: Env): Promise<Database> {
  const logger = getLogger();
  let database: Database;
  try {
    database = await openDatabase(env, (line) => logger.debug({ component: "postgres" }, line));
  } catch (error) {
    // A known reason, with what to do about it, is one line for the person at the terminal.
    if (error instanceof EmbeddedPostgresError) process.stderr.write(`could not start the embedded PostgreSQL: ${error.message}\n`);
    else logger.fatal({ err: error }, "could not open the database");
    process.exit(1);
  }
  if (database.embeddedDataDir) logger.info({ cluster: database.embeddedDataDir }, "using the embedded PostgreSQL");
  if (env.SEED_ON_START ?? database.embedded) {
    const seeded = await seed({ demoUsers: env.SEED_DEMO_USERS ?? env.demoMode });
    logger.info({ seeded }, "seeded the database");
  }
  return database;
}

/** The draws, the payment sweep and the mail sender: in the one process that owns the database (ADR 014, 032). */
export function startJobs(env: Env, which: "all" | "timed" | "mail" = "all") {
  if (!env.SCHEDULER_ENABLED) return { stop: async () => {} };
  const none = { stop: async () => {} };
  const timed = which !== "mail";
  const scheduler: Scheduler = timed ? startScheduler() : none;
  // Payments whose confirmation never came (a closed browser, a crash) are settled from the provider's record.
  const paymentSweep = timed ? startPaymentSweep() : none;
  // The outbox's messages: several instances share the work (leases, SKIP LOCKED). With
  // workers, they send it and the primary does not: a thousand winners' messages must not
  // take the event loop that is drawing the next thousand.
  const mailSender = which !== "timed" ? startMailSender() : none;
  return {
    stop: async () => {
      await scheduler.stop();
      await paymentSweep.stop();
      await mailSender.stop();
    },
  };
}

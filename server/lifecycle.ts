import path from "node:path";
import closeWithGrace from "close-with-grace";
import { openDatabase, type Database } from "./database";
import { ConfigError, getEnv, type Env } from "~/infra/env.server";
import { getLogger } from "~/infra/logger.server";
import { startMailSender } from "~/infra/mail/outbox.server";
import { startPaymentSweep } from "~/services/money/payments/sweep.server";
import { EmbeddedPostgresError } from "./postgres-user";
import { startScheduler, type Scheduler } from "~/services/raffles/scheduler.server";
import { startDemoCrowd } from "~/services/raffles/demo-crowd.server";
import { DEMO_USERS, seed } from "./seed";

/** Everything, database included, is closed within this long of SIGTERM or SIGINT, or the process exits 1. */
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

/** Signals of a fault keep Node's own action: they are no reason to drain. */
const FAULT_SIGNALS = ["SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE", "SIGSEGV"] as const;
/**
 * The signals a terminal sends to every process of its group (Ctrl-C, a closed window): a
 * cluster's worker leaves them to its primary, which then stops it with SIGTERM.
 */
const GROUP_SIGNALS = ["SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR2"] as const;

export type ShutdownReason = { signal?: NodeJS.Signals; err?: unknown; manual?: boolean };

/**
 * Runs `close` once (close-with-grace): on SIGTERM, SIGINT or another ending signal, on an
 * uncaught error (logged first), or on `stop()`. The process then exits 0, or 1 when `close`
 * throws, an error started it, a second signal comes meanwhile, or it is still running
 * SHUTDOWN_DEADLINE_MS after it began. `close` may itself exit with another code.
 * A cluster's worker (`worker: true`) listens for SIGTERM only, and ignores the signals a
 * terminal sends to the whole group, so that one Ctrl-C is not a second signal for it.
 */
export function onShutdown(close: (reason: ShutdownReason) => Promise<void>, { worker = false } = {}): { stop: () => void } {
  const logger = getLogger();
  if (worker) for (const signal of GROUP_SIGNALS) process.on(signal, () => {});
  const grace = closeWithGrace(
    {
      delay: SHUTDOWN_DEADLINE_MS,
      skip: worker ? [...FAULT_SIGNALS, ...GROUP_SIGNALS] : [...FAULT_SIGNALS],
      logger: { error: (message: unknown) => logger.error({ err: message }, "shutdown failed") },
      onTimeout: () => logger.error("shutdown deadline passed; exiting"),
      onSecondSignal: (signal) => logger.error({ signal }, "second signal while shutting down; exiting"),
      onSecondError: (error) => logger.fatal({ err: error }, "uncaught error while shutting down; exiting"),
    },
    async (reason) => {
      if (reason.err) logger.fatal({ err: reason.err }, "uncaught error; shutting down");
      await close(reason);
    },
  );
  return { stop: () => grace.close() };
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
  // Where the clone's data lives, among the first lines: a newcomer finds it, and how to delete it.
  const dataDir = path.resolve(env.DATA_DIR);
  const cluster = database.embeddedDataDir;
  if (cluster) {
    const where = cluster.startsWith(`${dataDir}/`) ? "" : `, its PostgreSQL cluster in ${cluster}`;
    logger.info({ dataDir, cluster }, `data in ${dataDir}${where} (npm run db:drop deletes it)`);
  } else logger.info({ dataDir }, `data in ${dataDir}, the database at DATABASE_URL`);
  if (env.SEED_ON_START ?? database.embedded) {
    const seeded = await seed({ demoUsers: env.SEED_DEMO_USERS ?? env.demoMode });
    logger.info({ seeded }, "seeded the database");
  }
  return database;
}

/** The lines after "listening": the mode the site runs in and, in demo mode, how to sign in. */
export function logWelcome(env: Env): void {
  const logger = getLogger();
  if (!env.demoMode) {
    logger.info("real mode: payments through Stripe");
    return;
  }
  logger.info("demo mode: play money, demo card payments; Stripe keys switch to real mode");
  if (env.SEED_DEMO_USERS ?? true) {
    const accounts = DEMO_USERS.map((user) => `${user.email} / ${user.password}`).join(", ");
    logger.info(`demo accounts: ${accounts} (the admin's second factor: README, "Demo mode")`);
  }
}

/** The draws, the payment sweep and the mail sender: in the one process that owns the database (032). */
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
  // The demo crowd's simulated players: demo mode only, beside the draws, once for all.
  const crowd = timed && env.demoMode && env.DEMO_CROWD > 0 ? startDemoCrowd(env.DEMO_CROWD) : none;
  return {
    stop: async () => {
      await crowd.stop();
      await scheduler.stop();
      await paymentSweep.stop();
      await mailSender.stop();
    },
  };
}

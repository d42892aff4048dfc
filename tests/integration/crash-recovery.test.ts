import { randomInt } from "node:crypto";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, inject, it } from "vitest";
import { db } from "~/models/db.server";
import { sessionCookieName, startSession } from "~/web/auth.server";
import { settleStalePayments, STALE_PAYMENT_MS } from "~/services/money/payments/sweep.server";
import { settleOpenPayouts } from "~/services/money/payouts.server";
import { openRaffle } from "~/services/raffles/raffles.server";
import { SCHEDULER_INTERVAL_MS } from "~/services/raffles/scheduler.server";
import { requestWithdrawal } from "~/services/money/withdrawals.server";
import { afterAnswers, nothingAcknowledged, runTraffic, type Acknowledged } from "../support/crash-workload";
import { createTestUser } from "../support/factories";
import { BALANCED, cashOutProblems, ledgerInvariants, raffleProblems } from "../support/money-invariants";
import { freePort, killServer, startServer, stopServer, waitUntilReady, type ServerProcess } from "../support/server-process";
import { databaseUrl } from "../support/test-database";

/**
 * Crash recovery: the production server runs as a child process on this file's
 * database while players enter raffles, buy coins and admins approve payouts over HTTP
 * and its scheduler draws raffles; it is killed with SIGKILL at a random moment and
 * started again. Then: the ledger invariants hold, every acknowledged entry, purchase
 * and payout is there exactly once, every raffle that was due is drawn by the first
 * pass after the restart, and every raffle is drawn at most once.
 *
 * The database server belongs to the test, not the child: an embedded PostgreSQL that
 * the child starts itself outlives a SIGKILL (it runs detached) and the next start
 * reuses it (docs/decisions/003-embedded-postgres.md), so a crash of the Node process
 * is what this exercises.
 *
 * CRASH_RUNS sets the number of kills (default 5, for CI); CRASH_SEED replays the kill
 * moments of a failed run (every failure message names its seed).
 */
const RUNS = Number(process.env.CRASH_RUNS ?? 5);
const SEED = Number(process.env.CRASH_SEED ?? randomInt(2 ** 31));
/** When the kill comes: after this many answers (0: before any), amid entries, draws, purchases and payouts. */
const killPoints = fc.sample(fc.integer({ min: 0, max: 40 }), { seed: SEED, numRuns: RUNS });
/** Raffles of a run end this long after its traffic starts: some before the kill, some while the server is down, some after. */
const RAFFLE_ENDS_MS = [200, 500, 900, 1_400, 2_000, 3_000];

async function actor(options: Parameters<typeof createTestUser>[0] = {}) {
  const user = await createTestUser(options);
  // Made here (NODE_ENV=test), sent to a production server, whose session cookie is __Host-session (ADR 027).
  const cookie = (await startSession(new Request("http://localhost/"), user.id)).split(";")[0]!.replace(/^__session=/, `${sessionCookieName(true)}=`);
  return { id: user.id, cookie };
}

async function start(url: string): Promise<ServerProcess> {
  const server = await startServer(path.resolve(process.env.DATA_DIR ?? ".data/test"), {
    DATABASE_URL: url,
    DEMO_MODE: "true",
    PORT: String(await freePort({ from: 3450, to: 3499 })),
    LOG_LEVEL: "warn",
  });
  await waitUntilReady(server);
  return server;
}

/** Waits for a condition on the database, failing after `timeoutMs`. */
async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: still not true after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function checkRecovered(acked: Acknowledged, where: string) {
  expect(await ledgerInvariants(), where).toEqual(BALANCED);
  expect(await raffleProblems(), where).toEqual([]);
  const users = await db().user.findMany({ select: { id: true } });
  expect(await cashOutProblems(users.map((u) => u.id)), where).toEqual([]);
  expect(
    acked.statuses.filter((s) => s >= 500),
    `${where}: server errors`,
  ).toEqual([]);

  const entries = await db().entry.findMany({ select: { raffleId: true, userId: true, position: true } });
  const held = new Set(entries.map((e) => `${e.raffleId}/${e.userId}/${e.position}`));
  const lost = acked.entries.filter((e) => !held.has(`${e.raffleId}/${e.userId}/${e.position}`));
  expect(lost, `${where}: acknowledged entries missing`).toEqual([]);

  // A purchase is credited once, with its payment marked succeeded, or not at all.
  const payments = await db().$queryRaw<{ userId: string; succeeded: bigint; deposits: bigint; mismatched: bigint }[]>`
    SELECT p.user_id::text AS "userId",
           count(*) FILTER (WHERE p.status = 'succeeded') AS succeeded,
           (SELECT count(*) FROM ledger_transactions t WHERE t.user_id = p.user_id AND t.kind = 'deposit') AS deposits,
           count(*) FILTER (WHERE (p.status = 'succeeded') <> EXISTS (
             SELECT 1 FROM ledger_transactions t WHERE t.reference = 'deposit:' || p.provider_payment_id)) AS mismatched
    FROM payments p GROUP BY p.user_id`;
  for (const row of payments) {
    expect({ deposits: row.deposits, mismatched: row.mismatched }, `${where}: purchases of ${row.userId}`).toEqual({ deposits: row.succeeded, mismatched: 0n });
  }
  for (const [userId, count] of acked.deposits) {
    expect(Number(payments.find((p) => p.userId === userId)?.succeeded ?? 0), `${where}: acknowledged purchases`).toBeGreaterThanOrEqual(count);
  }

  // A card charged at the provider just before the crash is credited by the payment sweep.
  await settleStalePayments(new Date(Date.now() + STALE_PAYMENT_MS + 1000), 1000);
  const uncredited = await db().$queryRaw<{ id: string }[]>`
    SELECT d.id FROM demo_payments d JOIN payments p ON p.provider_payment_id = d.id
    WHERE d.status = 'succeeded' AND NOT EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.reference = 'deposit:' || d.id)`;
  expect(uncredited, `${where}: charged but never credited`).toEqual([]);

  // An approval a crash cut off before sending is sent by the sweep. Each leg of a payout is
  // paid out once when completed and given back once when failed, never both; the holds
  // cover exactly the legs not yet settled; an acknowledged approval is never lost.
  await settleOpenPayouts();
  const legs = await db().$queryRaw<{ id: string; status: string; paid: bigint; returned: bigint }[]>`
    SELECT l.id::text AS id, l.status::text AS status,
           (SELECT count(*) FROM ledger_transactions t WHERE t.reference = 'payout:' || l.id) AS paid,
           (SELECT count(*) FROM ledger_transactions t WHERE t.reference = 'payout-return:' || l.id) AS returned
    FROM payout_legs l JOIN withdrawals w ON w.id = l.withdrawal_id WHERE w.status <> 'rejected'`;
  expect(
    legs.filter((l) => l.paid !== (l.status === "completed" ? 1n : 0n) || l.returned !== (l.status === "failed" ? 1n : 0n)),
    `${where}: payout legs paid or returned`,
  ).toEqual([]);
  const payouts = await db().withdrawal.findMany({ select: { id: true, status: true } });
  expect(
    [...acked.payouts].filter((id) => !["processing", "completed", "failed"].includes(payouts.find((w) => w.id === id)?.status ?? "")),
    `${where}: acknowledged payouts`,
  ).toEqual([]);
  const holds = await db().$queryRaw<{ userId: string }[]>`
    SELECT a.user_id::text AS "userId" FROM ledger_accounts a
    WHERE a.kind = 'withdrawal_hold' AND a.balance <> (
      SELECT coalesce(sum(l.amount), 0) FROM payout_legs l JOIN withdrawals w ON w.id = l.withdrawal_id
      WHERE w.user_id = a.user_id AND l.status IN ('pending', 'processing'))`;
  expect(holds, `${where}: holds that do not match the pending payouts`).toEqual([]);
}

describe("crash recovery", () => {
  it(
    `survives ${RUNS} SIGKILLs during entries, draws, purchases and payouts`,
    async () => {
      const [current] = await db().$queryRaw<{ name: string }[]>`SELECT current_database() AS name`;
      const url = databaseUrl(inject("databaseAdminUrl"), current!.name);
      // Enough for every run's entries and withdrawals (at most about 4,000 coins a run): cash
      // for the withdrawals, and as many bonus coins, which entries spend first.
      const stake = 10_000n + BigInt(RUNS) * 5_000n;
      const players = await Promise.all(Array.from({ length: 6 }, () => actor({ cash: stake, coins: stake })));
      const buyers = await Promise.all(Array.from({ length: 2 }, () => actor()));
      const admins = await Promise.all(Array.from({ length: 2 }, () => actor({ isAdmin: true })));
      await db().session.updateMany({ where: { userId: { in: admins.map((a) => a.id) } }, data: { adminGatePassedAt: new Date() } });

      let server = await start(url);
      try {
        for (let run = 0; run < RUNS; run++) {
          const where = `CRASH_SEED=${SEED}, run ${run + 1} of ${RUNS}, killed after ${killPoints[run]} answers`;
          const withdrawalIds = await Promise.all(
            players
              .slice(0, 4)
              .flatMap((player) =>
                ["10", "25"].map(
                  async (dollars) => (await requestWithdrawal(player.id, { amount: dollars, method: "venmo", fields: { username: "crash-test" } })).id,
                ),
              ),
          );
          const startedAt = Date.now();
          const raffleIds = await Promise.all(
            RAFFLE_ENDS_MS.map(
              async (endsIn) =>
                (await openRaffle({
                  kind: "regular",
                  tier: "micro",
                  entryPrice: 10n,
                  startsAt: new Date(startedAt - 1000),
                  endsAt: new Date(startedAt + endsIn),
                }))!,
            ),
          );

          const acked = nothingAcknowledged();
          const traffic = runTraffic(server, { players, buyers, admins, raffleIds, withdrawalIds }, acked);
          // The fault: SIGKILL at the run's random point, whatever is in flight.
          await afterAnswers(acked, killPoints[run]!);
          await killServer(server);
          await traffic;
          expect(server.output(), `${where}: errors logged before the kill`).not.toMatch(/"level":(50|60)/);

          const restartedAt = Date.now();
          server = await start(url);
          const readyAt = Date.now();
          await checkRecovered(acked, where);

          // Every raffle that was due when the new process started is drawn by its first
          // pass (which begins before it is ready), at the latest one period after ready.
          const due = { endsAt: { lte: new Date(restartedAt) } };
          await eventually(`${where}: due raffles drawn`, async () => (await db().raffle.count({ where: { ...due, status: "active" } })) === 0);
          const late = await db().raffle.findMany({
            where: { ...due, drawnAt: { gt: new Date(readyAt + SCHEDULER_INTERVAL_MS) } },
            select: { id: true, endsAt: true, drawnAt: true },
          });
          expect(late, `${where}: raffles drawn later than one scheduler period after the restart`).toEqual([]);
          expect(server.output(), `${where}: errors logged`).not.toMatch(/"level":(50|60)/);
        }

        // The last run's raffles end too; each is drawn once, by the live server.
        await eventually("every raffle drawn", async () => (await db().raffle.count({ where: { status: "active" } })) === 0);
        await checkRecovered(nothingAcknowledged(), `CRASH_SEED=${SEED}, after the last run`);
      } finally {
        expect((await stopServer(server)).code).toBe(0);
      }
      expect(await db().raffle.count({ where: { status: { not: "active" } } })).toBe(RUNS * RAFFLE_ENDS_MS.length);
    },
    60_000 + RUNS * 20_000,
  );
});

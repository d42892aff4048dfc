import { spawn } from "node:child_process";
import { expect, test } from "@playwright/test";
import { runningDatabaseUrl } from "../../support/database-dump";
import { startLocalBeacon, type LocalBeacon } from "../../support/local-beacon";
import { newDataDir, removeDataDirs, signUpOn, startServer, stopServer, waitUntilReady, type ServerProcess } from "../../support/server-process";
import { withClient } from "../../support/test-database";
import { scaled } from "../../support/timeouts";
import { verifyEmailOf } from "../support";

/**
 * scripts/watch-draws.mjs (issue 34, item 3) against a production build whose draws wait for
 * a local drand beacon: the server asks the beacon's first relay, the watcher its second, so
 * that the first can go down while the watcher still checks rounds.
 */
let server: ServerProcess;
let beacon: LocalBeacon;
let dataDir: string;
let base: string;

test.describe.configure({ mode: "serial", timeout: scaled(120_000) });

test.beforeAll(async () => {
  test.setTimeout(scaled(150_000));
  beacon = await startLocalBeacon({ modes: ["ok", "ok"] });
  dataDir = newDataDir();
  server = await startServer(dataDir, { BEACON_URLS: beacon.urls[0]!, BEACON_CHAIN_INFO: beacon.info });
  await waitUntilReady(server, scaled(110_000));
  base = `http://localhost:${server.port}`;
});

test.afterAll(async () => {
  await stopServer(server);
  await beacon.close();
  removeDataDirs();
});

const query = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  (await withClient(await runningDatabaseUrl(dataDir), (client) => client.query<T>(sql, params))).rows;

/** Runs the watcher to its end: its exit code and what it printed. */
function watch(...args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["scripts/watch-draws.mjs", base, "--relays", beacon.urls[1]!, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (out += chunk));
    child.on("exit", (code) => resolve({ code, out }));
  });
}

/** Two new players each buy a ticket of the next quick raffle that stays open long enough; returns its id. */
async function enteredQuickRaffle(): Promise<string> {
  const cookies: string[] = [];
  for (const email of [`watch-a-${Date.now()}@example.com`, `watch-b-${Date.now()}@example.com`]) {
    cookies.push(await signUpOn(base, email));
    await verifyEmailOf(email, await runningDatabaseUrl(dataDir));
  }
  let raffleId: string | undefined;
  await expect
    .poll(
      async () => {
        const [open] = await query<{ id: string }>(
          `SELECT id::text AS id FROM raffles WHERE kind = 'quick' AND tier = 'lightning' AND status = 'active'
             AND starts_at <= now() AND ends_at > now() + interval '8 seconds' ORDER BY ends_at LIMIT 1`,
        );
        raffleId = open?.id;
        return raffleId;
      },
      { timeout: scaled(40_000) },
    )
    .toBeTruthy();
  for (const cookie of cookies) {
    const entered = await fetch(`${base}/api/quick-raffles/${raffleId}/enter`, {
      method: "POST",
      headers: { Origin: base, Accept: "application/json", "Content-Type": "application/json", Cookie: cookie },
      body: "{}",
    });
    expect(entered.status, await entered.text()).toBe(200);
  }
  return raffleId!;
}

async function statusOf(raffleId: string): Promise<string | undefined> {
  return (await query<{ status: string }>("SELECT status::text AS status FROM raffles WHERE id = $1::uuid", [raffleId]))[0]?.status;
}

test("reports every draw verified, and alarms when a recorded result is altered", async () => {
  const raffleId = await enteredQuickRaffle();
  await expect.poll(() => statusOf(raffleId), { timeout: scaled(60_000) }).toBe("completed");

  const honest = await watch("--margin", "30");
  expect(honest.out).toMatch(new RegExp(`^verified ${raffleId} ticket \\d of 2, beacon round \\d+$`, "m"));
  expect(honest.out).not.toContain("ALARM");
  expect(honest.code).toBe(0);

  // An insider moves the win to the other ticket: the record no longer follows from its commitment and round.
  await query("UPDATE raffles SET winning_ticket = 1 - winning_ticket WHERE id = $1::uuid", [raffleId]);
  const altered = await watch("--margin", "30");
  expect(altered.out).toMatch(new RegExp(`^ALARM ${raffleId} .*DOES NOT VERIFY: .*winning ticket`, "m"));
  expect(altered.code).toBe(1);
});

test("alarms when a raffle's round has passed by the margin without a result", async () => {
  // The server's relay goes down: raffles past their end wait for a round it cannot fetch.
  beacon.modes[0] = "down";
  let overdue: string | undefined;
  await expect
    .poll(
      async () => {
        const [row] = await query<{ id: string }>(
          `SELECT r.id::text AS id FROM raffles r JOIN beacon_chains c ON c.hash = r.beacon_chain
           WHERE r.status = 'active' AND to_timestamp(c.genesis_time + (r.beacon_round - 1) * c.period_seconds) < now() - interval '3 seconds'
           LIMIT 1`,
        );
        overdue = row?.id;
        return overdue;
      },
      { timeout: scaled(60_000) },
    )
    .toBeTruthy();
  const late = await watch("--margin", "2", "--since", "5");
  expect(late.out).toMatch(new RegExp(`^ALARM ${overdue} late: no result \\d+ s after its beacon round \\d+$`, "m"));
  expect(late.code).toBe(1);
  beacon.modes[0] = "ok";
});

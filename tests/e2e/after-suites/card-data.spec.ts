import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_SUITES, e2eDataDir } from "../../support/e2e-suites";
import { findCardData } from "../../support/card-scan";
import { startEmbeddedPostgres } from "../../../server/embedded-postgres";
import { dumpAllTables } from "../../support/database-dump";

/**
 * After every browser suite (payments with the demo cards, withdrawals, the back office):
 * each suite's server's database, every table of it, and its logs hold no card number
 * and no CVV. The servers are tests/support/e2e-server.ts; this project runs after the
 * others (scripts/test-e2e.sh), when their servers may have stopped: a database that is
 * not running any more is started for the scan and stopped after it.
 */
for (const suite of E2E_SUITES) {
  test(`no card number or CVV in any table or in the logs after the ${suite} suite`, async () => {
    await expectNoCardData(e2eDataDir(suite));
  });
}

async function expectNoCardData(dataDir: string) {
  const urlFile = path.join(dataDir, "database-url");
  const embedded = existsSync(urlFile) ? undefined : await startEmbeddedPostgres({ dir: path.join(dataDir, "postgres") });
  const dump = await dumpAllTables(embedded ? embedded.url("raffle") : readFileSync(urlFile, "utf8").trim()).finally(() => embedded?.stop());
  const logs = readFileSync(path.join(dataDir, "server.log"), "utf8");
  // The suites did handle cards: demo card payments went through this server.
  expect(dump.split("\n").filter((row) => row.startsWith("payments\t") && row.includes('"status":"succeeded"')).length).toBeGreaterThan(0);
  expect(logs).toContain('"url":"/checkout?package=');
  expect(findCardData(dump), "database").toEqual([]);
  expect(findCardData(logs), "logs").toEqual([]);
}

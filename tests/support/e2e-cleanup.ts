import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { removeEmbeddedPostgres } from "../../server/embedded-postgres";
import { DROP_FILE, E2E_SUITES, e2eDataDir } from "./e2e-suites";
import { dropDatabase } from "./test-database";

/**
 * The end of `npm run test:e2e` (scripts/test-e2e.sh): the browser suites' databases, kept
 * for the card-data scan of its second run, are removed, passed or failed (issue 39).
 */
let failed = false;
for (const suite of E2E_SUITES) {
  const dataDir = e2eDataDir(suite);
  try {
    const drop = path.join(dataDir, DROP_FILE);
    if (existsSync(drop)) {
      const { adminUrl, name } = JSON.parse(readFileSync(drop, "utf8")) as { adminUrl: string; name: string };
      await dropDatabase(adminUrl, name);
    } else if (existsSync(path.join(dataDir, "postgres"))) {
      removeEmbeddedPostgres(path.join(dataDir, "postgres"));
    }
  } catch (error) {
    failed = true;
    process.stderr.write(`could not remove the ${suite} suite's database: ${(error as Error).message}\n`);
  }
}
process.exit(failed ? 1 : 0);

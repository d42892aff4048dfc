import path from "node:path";

/**
 * The browser suites (Playwright projects) that each get a server and a database of their
 * own (tests/support/e2e-server.ts): what one suite does, another never sees, so no test has
 * to allow for another suite's players, payouts or raffles.
 */
export const E2E_SUITES = ["desktop", "mobile", "no-javascript"] as const;
export type E2eSuite = (typeof E2E_SUITES)[number];

/** On DATABASE_URL, where a suite's server names the database it made, for its removal. */
export const DROP_FILE = "database-drop.json";

/** The first suite's port (E2E_PORT, default 3210); the others follow it. */
export function e2ePort(suite: E2eSuite): number {
  return Number(process.env.E2E_PORT ?? 3210) + E2E_SUITES.indexOf(suite);
}

/** Where a suite's server keeps its embedded database, its logs and its mail (under E2E_DATA_ROOT when set: a run inside a process test). */
export function e2eDataDir(suite: E2eSuite): string {
  return path.resolve(process.env.E2E_DATA_ROOT ?? ".data/e2e", suite);
}

export function isE2eSuite(name: string): name is E2eSuite {
  return (E2E_SUITES as readonly string[]).includes(name);
}

/**
 * Every test's time limits, from one place. A loaded machine is slower at everything at
 * once, so every limit stretches by the same factor, TEST_TIMEOUT_FACTOR (default 1; .ci/run
 * sets 2): one setting for a slow machine, not literals raised one flake at a time.
 * Ratios between limits stay as written, so a test's own limit keeps exceeding its waits.
 */
export const TIMEOUT_FACTOR = readFactor(process.env.TEST_TIMEOUT_FACTOR);

/** `ms` as measured on an unloaded two-core machine, stretched for this one. */
export function scaled(ms: number): number {
  return Math.round(ms * TIMEOUT_FACTOR);
}

export const TIMEOUTS = {
  /** One Playwright test, unless it sets a longer one with test.setTimeout(scaled(…)). */
  browserTest: scaled(30_000),
  /** One Playwright `expect`: a page load or a server's answer on a busy machine. */
  browserExpect: scaled(15_000),
  /** The three suites' servers and their databases, started at once. */
  serverStart: scaled(180_000),
  /** One Vitest test and one hook: the integration suites run on a real database. */
  vitestTest: scaled(30_000),
  vitestHook: scaled(60_000),
} as const;

function readFactor(value: string | undefined): number {
  if (value === undefined || value === "") return 1;
  const factor = Number(value);
  if (!Number.isFinite(factor) || factor < 1) throw new Error(`TEST_TIMEOUT_FACTOR=${value}: expected a number of at least 1`);
  return factor;
}

import { findChromium, MISSING } from "../../scripts/chromium.mjs";

/**
 * Playwright cannot download its own browsers on machines without internet, so the
 * tests drive an installed Chromium: PLAYWRIGHT_CHROMIUM_EXECUTABLE, or one on PATH
 * (`npm test` installs Debian's first when it can: scripts/chromium.mjs).
 */
export function chromiumExecutable(): string {
  const found = findChromium();
  if (!found) {
    process.stderr.write(`${MISSING}\n`);
    process.exit(1);
  }
  return found;
}

/** Flags for a closed network: no background connections, no sandbox as root. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

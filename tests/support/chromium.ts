import { existsSync } from "node:fs";

/**
 * Playwright cannot download its own browsers on machines without internet, so the
 * tests drive an installed Chromium: PLAYWRIGHT_CHROMIUM_EXECUTABLE, or Debian's.
 */
const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

export function chromiumExecutable(): string {
  const configured = process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE;
  if (configured) {
    if (existsSync(configured)) return configured;
    throw new Error(`PLAYWRIGHT_CHROMIUM_EXECUTABLE=${configured} does not exist`);
  }
  const found = CANDIDATES.find((candidate) => existsSync(candidate));
  if (!found) {
    process.stderr.write(
      "No Chromium found: install one with `sudo apt-get install -y chromium` or set PLAYWRIGHT_CHROMIUM_EXECUTABLE to a Chromium binary.\n",
    );
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

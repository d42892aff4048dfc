/**
 * `npm test`'s first step: the browser suites drive an installed Chromium (Playwright cannot
 * download one on machines without internet), so it is found, or installed, before the ten
 * minutes of checks that come first. PLAYWRIGHT_CHROMIUM_EXECUTABLE, or a Chromium on PATH;
 * missing, root with apt-get installs Debian's `chromium` (as `npm run bench` does pgbench),
 * and anyone else is told the one command to run. No imports beyond Node's: it runs before
 * anything is checked, and a test runs it as another user from a copy.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

export const INSTALL_COMMAND = "sudo apt-get install -y chromium";

/** The first executable called `name` on `PATH`, if any. */
export function onPath(name, pathVariable = process.env.PATH ?? "") {
  for (const folder of pathVariable.split(path.delimiter).filter(Boolean)) {
    const file = path.join(folder, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * The Chromium the tests drive: PLAYWRIGHT_CHROMIUM_EXECUTABLE (which must exist), else
 * the first Chromium or Chrome on PATH; undefined when there is none.
 */
export function findChromium(env = process.env) {
  const configured = env.PLAYWRIGHT_CHROMIUM_EXECUTABLE;
  if (configured) {
    if (existsSync(configured)) return configured;
    throw new Error(`PLAYWRIGHT_CHROMIUM_EXECUTABLE=${configured} does not exist`);
  }
  for (const name of NAMES) {
    const found = onPath(name, env.PATH);
    if (found) return found;
  }
  return undefined;
}

/** The line that says there is no Chromium and what to run. */
export const MISSING = `No Chromium found: run \`${INSTALL_COMMAND}\` (or set PLAYWRIGHT_CHROMIUM_EXECUTABLE to a Chromium binary), then npm test again.`;

function main() {
  let found;
  try {
    found = findChromium();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
  if (found) return 0;
  if (process.getuid?.() !== 0 || !onPath("apt-get")) {
    process.stderr.write(`${MISSING}\n`);
    return 1;
  }
  process.stderr.write("No Chromium found: installing Debian's (apt-get install -y chromium), once, for the browser tests…\n");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "chromium"],
  ]) {
    const { status } = spawnSync("apt-get", args, { stdio: ["ignore", "ignore", "inherit"], env });
    if (status !== 0) {
      process.stderr.write(`apt-get ${args.join(" ")} failed (exit ${status}): install a Chromium yourself, then npm test again.\n`);
      return 1;
    }
  }
  if (findChromium()) return 0;
  process.stderr.write(`apt-get installed chromium, but none is on PATH: ${MISSING}\n`);
  return 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(main());

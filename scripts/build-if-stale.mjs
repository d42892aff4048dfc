/**
 * `npm start`'s first step: runs `npm run build` unless build/ is newer than the sources
 * and the lockfile, and says which it did (a build takes about 10 s on two cores).
 */
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** What the build writes last, per step: the oldest of them is when the last whole build ended. */
const OUTPUTS = ["build/server/index.js", "build/server.js", "build/scripts/db.js"];

/**
 * Top-level entries the build never reads. Everything else in the checkout counts as a
 * source (app/, public/, prisma/, scripts/, server.ts, server/, configs, package.json, the
 * lockfile), so a new input is never missed; a folder's own time covers a deleted file.
 */
const NOT_SOURCES = new Set([".git", ".data", ".ci", "node_modules", "build", "tests", "docs", "bench", "test-results", "playwright-report"]);

const mtime = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
};

/** The first source (path relative to `root`) changed after `since`, if any. */
function newerSource(root, dir, since) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (dir === root && (NOT_SOURCES.has(entry.name) || entry.name.endsWith(".md"))) continue;
    if ((mtime(file) ?? 0) > since) return path.relative(root, file);
    if (entry.isDirectory()) {
      const found = newerSource(root, file, since);
      if (found) return found;
    }
  }
  return undefined;
}

/** Why `root`'s build/ must be made again (what is missing or changed), or undefined when it is current. */
export function staleBecause(root) {
  let builtAt = Infinity;
  for (const output of OUTPUTS) {
    const time = mtime(path.join(root, output));
    if (time === undefined) return `${output} is missing`;
    builtAt = Math.min(builtAt, time);
  }
  const source = newerSource(root, root, builtAt);
  return source && `${source} changed since the last build`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const reason = staleBecause(root);
  if (!reason) {
    console.log("build/ is newer than the sources and the lockfile: skipping the build (npm run build makes one)");
  } else {
    console.log(`building: ${reason}`);
    // Through the npm that runs `npm start`, when it is npm that runs us.
    const npm = process.env.npm_execpath;
    const { status } = npm
      ? spawnSync(process.execPath, [npm, "run", "build"], { cwd: root, stdio: "inherit" })
      : spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
    process.exit(status ?? 1);
  }
}

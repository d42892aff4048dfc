import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { staleBecause } from "./build-if-stale.mjs";

/** A checkout in a temporary folder: every file written at `at` seconds since the epoch. */
let root: string;
const BUILT = 2_000_000;
const BEFORE = BUILT - 60;
const AFTER = BUILT + 60;

function write(file: string, at: number) {
  const full = path.join(root, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, file);
  touch(file, at);
}

function touch(file: string, at: number) {
  utimesSync(path.join(root, file), at, at);
}

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "build-if-stale-"));
  for (const source of ["app/root.tsx", "app/routes/_index.tsx", "server.ts", "package.json", "package-lock.json"]) write(source, BEFORE);
  for (const output of ["build/server/index.js", "build/server.js", "build/scripts/db.js"]) write(output, BUILT);
  for (const folder of ["app/routes", "app", "build/server", "build/scripts", "build"]) touch(folder, folder.startsWith("build") ? BUILT : BEFORE);
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("staleBecause", () => {
  test("a build newer than every source and the lockfile is current", () => {
    expect(staleBecause(root)).toBeUndefined();
  });

  test("a missing build is made", () => {
    rmSync(path.join(root, "build"), { recursive: true });
    expect(staleBecause(root)).toBe("build/server/index.js is missing");
  });

  test("a source or the lockfile changed after the build names itself", () => {
    touch("app/routes/_index.tsx", AFTER);
    expect(staleBecause(root)).toBe("app/routes/_index.tsx changed since the last build");
    touch("app/routes/_index.tsx", BEFORE);
    touch("package-lock.json", AFTER);
    expect(staleBecause(root)).toBe("package-lock.json changed since the last build");
  });

  test("a source deleted after the build changes its folder", () => {
    rmSync(path.join(root, "app/root.tsx"));
    touch("app", AFTER);
    expect(staleBecause(root)).toBe("app changed since the last build");
  });

  test("a build that stopped half-way (one step older than a source) is made again", () => {
    touch("build/server.js", BEFORE - 60);
    expect(staleBecause(root)).toMatch(/ changed since the last build$/);
  });

  test("tests, docs, local data and node_modules are not sources", () => {
    for (const file of ["tests/e2e/a.spec.ts", "docs/ARCHITECTURE.md", ".data/postgres/password", "node_modules/x/index.js", "README.md"]) {
      write(file, AFTER);
    }
    expect(staleBecause(root)).toBeUndefined();
  });
});

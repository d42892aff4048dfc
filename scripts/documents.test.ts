import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

// Issue 32: documents a newcomer can read. The limits are the issue's; raise them only with a
// reason that would convince a newcomer, not to fit one more paragraph.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DECISIONS = path.join(ROOT, "docs/decisions");
const README_MAX_LINES = 200;
const ARCHITECTURE_MAX_LINES = 120;
const ADR_MAX_WORDS = 600;

const read = (file: string) => readFileSync(file, "utf8");
const records = readdirSync(DECISIONS)
  .filter((name) => /^\d{3}-.+\.md$/.test(name))
  .map((name) => ({ name, text: read(path.join(DECISIONS, name)) }));

const lineCount = (text: string) => text.replace(/\n$/, "").split("\n").length;
const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;
/** The status paragraph: from "Status:" to the next blank line. */
const statusOf = (text: string) => /^Status:.*(?:\n.+)*/m.exec(text)?.[0].replace(/\s+/g, " ");

describe("documents", () => {
  test(`the README is at most ${README_MAX_LINES} lines`, () => {
    expect(lineCount(read(path.join(ROOT, "README.md")))).toBeLessThanOrEqual(README_MAX_LINES);
  });

  test(`ARCHITECTURE.md is one page: at most ${ARCHITECTURE_MAX_LINES} lines`, () => {
    expect(lineCount(read(path.join(ROOT, "docs/ARCHITECTURE.md")))).toBeLessThanOrEqual(ARCHITECTURE_MAX_LINES);
  });

  test("there are decision records to check", () => {
    expect(records.length).toBeGreaterThan(50);
  });

  test(`every decision record is at most ${ADR_MAX_WORDS} words`, () => {
    const long = records.filter(({ text }) => wordCount(text) > ADR_MAX_WORDS).map(({ name, text }) => `${name}: ${wordCount(text)} words`);
    expect(long).toEqual([]);
  });

  test("every decision record has a status line", () => {
    expect(records.filter(({ text }) => !statusOf(text)).map(({ name }) => name)).toEqual([]);
  });

  test("a record whose status says superseded names the record that supersedes it", () => {
    const unnamed = records.filter(({ text }) => {
      const status = statusOf(text) ?? "";
      return /superseded/i.test(status) && !/superseded by \[?\d{3}/i.test(status);
    });
    expect(unnamed.map(({ name }) => name)).toEqual([]);
  });
});

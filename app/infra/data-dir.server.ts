import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getEnv } from "./env.server";

/** Absolute path of a file or folder under DATA_DIR (git-ignored local state). */
export function dataPath(...parts: string[]): string {
  return path.resolve(getEnv().DATA_DIR, ...parts);
}

/**
 * A random secret kept under DATA_DIR, made on first use. Only for demo mode:
 * with real payments configured, secrets come from the environment.
 */
export function localSecret(name: string): string {
  const file = dataPath("secrets", name);
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // Written whole under a name of its own, then linked into place: another process (a
    // cluster's worker) sees either no file or the whole secret, never a half-written one.
    const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    writeFileSync(draft, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    try {
      linkSync(draft, file);
    } catch (error) {
      // Another process linked its own first: theirs is the secret.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      unlinkSync(draft);
    }
    return readFileSync(file, "utf8").trim();
  }
}

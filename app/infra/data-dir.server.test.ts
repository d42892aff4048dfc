import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { scaled } from "../../tests/support/timeouts";

const run = promisify(execFile);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("localSecret", () => {
  it(
    "gives processes that make it at the same moment one whole secret, and leaves no drafts",
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), "raffle-secret-"));
      dirs.push(dataDir);
      const script = path.join(dataDir, "make-secret.mts");
      const module = path.resolve("app/infra/data-dir.server.ts");
      // Each waits for the same moment (they start hundreds of milliseconds apart), then makes it.
      const at = Date.now() + 5_000;
      writeFileSync(
        script,
        `import { localSecret } from ${JSON.stringify(module)};\n` +
          `while (Date.now() < ${at}) await new Promise((resolve) => setTimeout(resolve, Math.max(0, ${at} - Date.now() - 2)));\n` +
          `while (Date.now() < ${at});\n` +
          `process.stdout.write(localSecret("race"));\n`,
      );
      const { NODE_OPTIONS: _, ...env } = process.env;
      const secrets = await Promise.all(
        Array.from({ length: 6 }, () =>
          run(path.resolve("node_modules/.bin/tsx"), [script], { env: { ...env, DATA_DIR: dataDir }, timeout: scaled(30_000) }).then(({ stdout }) => stdout),
        ),
      );
      expect(secrets[0]).toMatch(/^[\w-]{43}$/);
      expect(new Set(secrets)).toEqual(new Set([secrets[0]]));
      expect(readdirSync(path.join(dataDir, "secrets"))).toEqual(["race"]);
    },
    scaled(60_000),
  );
});

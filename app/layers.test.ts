import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/**
 * The layers (eslint.config.js, issue 32): a back-arrow fails `npm run lint`. Each case is a
 * file that does not exist, linted as if it stood at that path.
 */
const ROOT = path.resolve(__dirname, "..");

describe("the layer rules", () => {
  const eslint = new ESLint({ cwd: ROOT });
  const lint = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    return result!.messages.map((m) => m.ruleId);
  };

  it("refuses an import back up, by alias or by relative path", { timeout: 60_000 }, async () => {
    const refused: [string, string][] = [
      ["app/models/sample.server.ts", 'export { endAllSessions } from "~/services/accounts/sessions.server";'],
      ["app/services/sample.server.ts", 'export { requireUser } from "~/web/auth.server";'],
      ["app/models/sample.server.ts", 'export { getEnv } from "~/infra/env.server";'],
      ["app/infra/sample.server.ts", 'export { consume } from "~/services/system/rate-limit.server";'],
      ["app/services/sample.server.ts", 'export { Toaster } from "../components/toaster";'],
      ["app/services/sample.server.ts", 'export { jsonError } from "~/web/http.server";'],
      ["app/shared/sample.ts", 'export { db } from "~/models/db.server";'],
      ["app/components/sample.tsx", 'export { playState } from "~/services/play-safety/reality-check.server";'],
    ];
    for (const [file, code] of refused) expect(await lint(file, code), `${file}: ${code}`).toContain("boundaries/dependencies");
  });

  it("keeps the browser's and the web's modules out of lower layers", { timeout: 60_000 }, async () => {
    expect(await lint("app/shared/sample.ts", 'export { randomUUID } from "node:crypto";')).toContain("no-restricted-imports");
    expect(await lint("app/services/sample.server.ts", 'export { redirect } from "@remix-run/node";')).toContain("no-restricted-imports");
    expect(await lint("app/models/sample.server.ts", 'export type { NewToast } from "~/shared/toast";')).toContain("no-restricted-imports");
  });

  it("allows the arrows down, and a component naming a loader's type", { timeout: 60_000 }, async () => {
    const allowed: [string, string][] = [
      ["app/routes/sample.tsx", 'export { requireUser } from "~/web/auth.server";'],
      ["app/routes/sample.tsx", 'export { needsOnboarding } from "~/services/accounts/sessions.server";'],
      ["app/services/sample.server.ts", 'export { db } from "~/models/db.server";'],
      ["app/models/sample.server.ts", 'export { formatDollars } from "~/shared/money";'],
      ["app/components/sample.tsx", 'export type { PlayState } from "~/services/play-safety/reality-check.server";'],
    ];
    for (const [file, code] of allowed) expect(await lint(file, code), `${file}: ${code}`).toEqual([]);
  });
});

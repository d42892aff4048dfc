import { randomBytes } from "node:crypto";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { merkleRoot, winningTicket, type Ticket } from "~/services/fairness/draw-math.server";
import { chiSquare, chiSquareCritical } from "../../../tests/support/chi-square";
import { scaled } from "../../../tests/support/timeouts";

/**
 * Randomness comes only from node:crypto (PRODUCT.md, "Fair draws"): the lint rule that
 * bans Math.random in server code catches every way of reaching it, and a player's chance
 * in a draw is their share of the tickets. The spin wheel against its published odds:
 * tests/integration/published-odds.test.ts.
 */
const ROOT = path.resolve(__dirname, "../../..");
/** Long runs (npm run test:reliability) draw many more samples. */
const DRAWS = process.env.RELIABILITY === "long" ? 400_000 : 40_000;

describe("the lint rule against Math.random", () => {
  const eslint = new ESLint({ cwd: ROOT });
  const lint = async (code: string, file: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    return result!.messages.map((m) => m.ruleId);
  };

  it("refuses Math.random in server code however it is reached", { timeout: scaled(30_000) }, async () => {
    const ways = [
      "export const x = Math.random();",
      'export const x = Math["random"]();',
      "const { random } = Math; export const x = random();",
      "export const pick = Math.random;",
      "export const x = globalThis.Math.random();",
      'export const x = globalThis.Math["random"]();',
    ];
    for (const file of ["app/services/sample.server.ts", "app/routes/sample.tsx", "server.ts", "scripts/sample.ts", "scripts/sample.mjs"]) {
      for (const code of ways) {
        const rules = await lint(code, file);
        expect(
          rules.some((r) => r === "no-restricted-properties" || r === "no-restricted-syntax"),
          `${file}: ${code}`,
        ).toBe(true);
      }
    }
  });

  it("allows node:crypto", { timeout: scaled(30_000) }, async () => {
    expect(await lint('import { randomInt } from "node:crypto";\nexport const x = randomInt(6);\n', "app/services/sample.server.ts")).toEqual([]);
  });
});

describe("weighted draws", () => {
  it("give each player their share of the tickets (chi-square over fresh seeds, p > 10⁻⁶)", () => {
    // Four players holding 1, 2, 3 and 4 of the 10 tickets, in a shuffled order.
    const owners = ["c", "a", "d", "b", "d", "c", "b", "d", "c", "d"];
    const tickets: Ticket[] = owners.map((_, position) => ({ position, ticketId: `t${position}` }));
    const raffleId = "6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
    const root = merkleRoot(raffleId, tickets);
    const wins = new Map<string, number>();
    for (let i = 0; i < DRAWS; i++) {
      const owner = owners[winningTicket(randomBytes(32).toString("hex"), raffleId, root, tickets.length)]!;
      wins.set(owner, (wins.get(owner) ?? 0) + 1);
    }
    const share = Object.entries({ a: 1, b: 2, c: 3, d: 4 });
    const observed = share.map(([player]) => wins.get(player) ?? 0);
    const expected = share.map(([, held]) => (DRAWS * held) / tickets.length);
    expect(chiSquare(observed, expected)).toBeLessThan(chiSquareCritical(share.length));
  });
});

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { merkleRootOf, seedHashOf, verifyDraw, winningTicketOf } from "./draw-verifier.mjs";
import { merkleRoot, seedHash, winningTicket } from "./fairness";

/**
 * The browser's verifier (Web Crypto), the command-line verifier and the server's draw
 * agree on the test vectors as docs/fairness.md publishes them: the vectors are read from
 * the document itself, so a document that drifts from the code fails here.
 */
const doc = readFileSync("docs/fairness.md", "utf8");
const RAFFLE = /Raffle id `([0-9a-f-]{36})`/.exec(doc)![1]!;
const SEED = "00".repeat(31) + /then\s+`0x([0-9a-f]{2})`/.exec(doc)![1]!;
const SEED_HASH = /`seedHash = ([0-9a-f]{64})`/.exec(doc)![1]!;
const VECTORS = [...doc.matchAll(/^\| (\d+) \| `([0-9a-f]{64})` \| (\d+) \|$/gm)].map((m) => ({
  n: Number(m[1]),
  root: m[2]!,
  winner: Number(m[3]),
}));
const tickets = (n: number) => Array.from({ length: n }, (_, i) => ({ position: i, ticketId: `t${i}` }));

/** A draw's public JSON, shaped as GET /api/fair/<id> answers it. */
const publicDraw = (n: number, root: string, winner: number) => ({
  raffleId: RAFFLE,
  status: "completed",
  revealed: true,
  seed: SEED,
  seedHash: SEED_HASH,
  ticketCount: n,
  tickets: tickets(n),
  merkleRoot: root,
  winningTicket: winner,
});

function runScript(draw: unknown): { status: number; out: Record<string, unknown> } {
  try {
    return { status: 0, out: JSON.parse(execFileSync(process.execPath, ["scripts/verify-draw.mjs"], { input: JSON.stringify(draw), stdio: "pipe" }).toString()) };
  } catch (error) {
    const failed = error as { status: number; stdout: Buffer };
    return { status: failed.status, out: JSON.parse(failed.stdout.toString()) };
  }
}

// Each case starts Node processes, slow on a busy machine.
describe("the draw verifier shared by the browser and scripts/verify-draw.mjs", { timeout: 60_000 }, () => {
  it("reads the document's vectors", () => {
    expect(VECTORS.map((v) => v.n)).toEqual([1, 2, 3, 5]);
  });

  it("computes the document's seed hash, roots and winners, as the server does", async () => {
    expect(await seedHashOf(SEED)).toBe(SEED_HASH);
    expect(seedHash(SEED)).toBe(SEED_HASH);
    for (const { n, root, winner } of VECTORS) {
      expect(await merkleRootOf(RAFFLE, tickets(n))).toBe(root);
      expect(merkleRoot(RAFFLE, tickets(n))).toBe(root);
      expect(await winningTicketOf(SEED, RAFFLE, root, n)).toBe(winner);
      expect(winningTicket(SEED, RAFFLE, root, n)).toBe(winner);
    }
  });

  it("verifies each vector in the browser module and in the script alike", async () => {
    for (const { n, root, winner } of VECTORS) {
      const draw = publicDraw(n, root, winner);
      const verdict = await verifyDraw(draw);
      expect(verdict).toMatchObject({ verified: true, merkleRoot: root, winningTicket: winner });
      expect(runScript(draw)).toEqual({
        status: 0,
        out: { verified: true, winningTicket: winner, merkleRoot: root, seedMatchesCommitment: true, ticketCountMatches: true, merkleRootMatches: true, winningTicketMatches: true },
      });
    }
  });

  it("both refuse a changed seed, a changed ticket and a changed winner", async () => {
    const { n, root, winner } = VECTORS.at(-1)!;
    const tampered = [
      { ...publicDraw(n, root, winner), seed: "00".repeat(31) + "2b" },
      { ...publicDraw(n, root, winner), tickets: tickets(n).map((t, i) => (i === 1 ? { ...t, ticketId: "forged" } : t)) },
      { ...publicDraw(n, root, winner), winningTicket: (winner + 1) % n },
      { ...publicDraw(n, root, winner), seed: "not hex" },
    ];
    for (const draw of tampered) {
      expect((await verifyDraw(draw)).verified).toBe(false);
      const script = runScript(draw);
      expect(script.status).toBe(1);
      expect(script.out.verified).toBe(false);
    }
  });

  it("says why a draw that is not revealed or was cancelled has nothing to verify", async () => {
    expect(await verifyDraw({ raffleId: RAFFLE, revealed: false })).toMatchObject({ verified: false, reason: "The seed is revealed after the draw." });
    expect(await verifyDraw({ raffleId: RAFFLE, revealed: true, status: "cancelled" })).toMatchObject({ verified: false, reason: expect.stringMatching(/cancelled and refunded/) });
    expect(await verifyDraw(null)).toMatchObject({ verified: false });
  });
});

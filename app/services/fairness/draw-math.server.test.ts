import { execFileSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { chiSquare, chiSquareCritical } from "../../../tests/support/chi-square";
import { inclusionProof, merkleRoot, seedHash, verifyInclusion, winningTicket, type Ticket } from "./draw-math.server";

const RAFFLE = "6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
const SEED = "00".repeat(31) + "2a";
const tickets = (n: number): Ticket[] => Array.from({ length: n }, (_, i) => ({ position: i, ticketId: `t${i}` }));

describe("the published test vectors (docs/fairness.md)", () => {
  it("match", () => {
    expect(seedHash(SEED)).toBe("0a28e9ffef0073f9a6a674cf57ee77307f38f0f1bebb087888d9011ed0eeefdf");
    const vectors: [number, string, number][] = [
      [1, "eaa7412687239becd4ace0dbdd74c91c5869bd907a7e911e289fc1ac668fb700", 0],
      [2, "cf7e5151b0bf7e70bba94ac2205e86810a40b89585c42efc34884a156e6cca78", 0],
      [3, "827f4413b230153d9b0e7bf11b8961ccfc51c995a9c9ff9d61ffa9ae4a5b34c4", 2],
      [5, "e0a5795c289d5daa41b147828f8ecfe0f5d1764ecf4a42938d29390d3cee6be7", 3],
    ];
    for (const [n, root, winner] of vectors) {
      expect(merkleRoot(RAFFLE, tickets(n))).toBe(root);
      expect(winningTicket(SEED, RAFFLE, root, n)).toBe(winner);
    }
  });
});

describe("inclusion proofs", () => {
  it("prove every ticket of trees of 1 to 33 tickets, and nothing else", () => {
    for (let n = 1; n <= 33; n++) {
      const all = tickets(n);
      const root = merkleRoot(RAFFLE, all);
      for (const ticket of all) {
        const proof = inclusionProof(RAFFLE, all, ticket.position);
        expect(verifyInclusion(RAFFLE, ticket, n, proof, root)).toBe(true);
        expect(verifyInclusion(RAFFLE, { ...ticket, ticketId: "forged" }, n, proof, root)).toBe(false);
        if (n > 1) {
          const other = (ticket.position + 1) % n;
          expect(verifyInclusion(RAFFLE, { ...ticket, position: other }, n, proof, root)).toBe(false);
        }
      }
    }
  });

  it("refuses a proof whose hashes are not 32 bytes, longer or shorter", () => {
    const all = tickets(5);
    const root = merkleRoot(RAFFLE, all);
    const proof = inclusionProof(RAFFLE, all, 2);
    expect(verifyInclusion(RAFFLE, all[2]!, 5, proof, root)).toBe(true);
    expect(verifyInclusion(RAFFLE, all[2]!, 5, [`${proof[0]}00`, ...proof.slice(1)], root)).toBe(false);
    expect(verifyInclusion(RAFFLE, all[2]!, 5, [proof[0]!.slice(0, 62), ...proof.slice(1)], root)).toBe(false);
  });

  it("refuses tickets out of order", () => {
    expect(() => merkleRoot(RAFFLE, [{ position: 1, ticketId: "a" }])).toThrow();
  });
});

describe("the draw", () => {
  it("is uniform over the tickets: chi-square over many fresh seeds", () => {
    const n = 7;
    const draws = 28_000;
    const root = merkleRoot(RAFFLE, tickets(n));
    const counts = new Array<number>(n).fill(0);
    for (let i = 0; i < draws; i++) counts[winningTicket(randomBytes(32).toString("hex"), RAFFLE, root, n)]! += 1;
    expect(chiSquare(counts, new Array<number>(n).fill(draws / n))).toBeLessThan(chiSquareCritical(n));
  });

  it("depends on every input", () => {
    const root = merkleRoot(RAFFLE, tickets(1000));
    const base = winningTicket(SEED, RAFFLE, root, 1000);
    const variants = [
      winningTicket("00".repeat(31) + "2b", RAFFLE, root, 1000),
      winningTicket(SEED, randomUUID(), root, 1000),
      winningTicket(SEED, RAFFLE, merkleRoot(RAFFLE, tickets(999).concat({ position: 999, ticketId: "x" })), 1000),
    ];
    expect(variants.some((v) => v !== base)).toBe(true);
  });

  it("agrees with the standalone verifier, which also catches a wrong claim", () => {
    const all = Array.from({ length: 9 }, (_, i) => ({ position: i, ticketId: randomUUID() }));
    const seed = randomBytes(32).toString("hex");
    const root = merkleRoot(RAFFLE, all);
    const draw = {
      raffleId: RAFFLE,
      status: "completed",
      revealed: true,
      ticketCount: all.length,
      seed,
      seedHash: seedHash(seed),
      merkleRoot: root,
      tickets: all,
      winningTicket: winningTicket(seed, RAFFLE, root, all.length),
    };
    const out = execFileSync(process.execPath, ["scripts/verify-draw.mjs"], { input: JSON.stringify(draw) }).toString();
    expect(JSON.parse(out)).toMatchObject({ winningTicket: draw.winningTicket, merkleRootMatches: true, seedMatchesCommitment: true });
    const wrong = { ...draw, winningTicket: (draw.winningTicket + 1) % all.length };
    expect(() => execFileSync(process.execPath, ["scripts/verify-draw.mjs"], { input: JSON.stringify(wrong), stdio: "pipe" })).toThrow();
  });
});

import { execFileSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  beaconRandomness,
  drawWinner,
  inclusionHolds,
  merkleRootOf,
  QUICKNET,
  roundAfter,
  roundTime,
  seedHashOf,
  verifyBeaconSignature,
  verifyDraw,
} from "./draw-verifier.mjs";
import { inclusionProof, merkleRoot, seedHash, winningTicket } from "~/services/fairness/draw-math.server";
import { scaled } from "../../tests/support/timeouts";

/**
 * The verifier (the browser's and the command line's) and the server's draw agree on the
 * test vectors as docs/fairness.md publishes them, with and without the beacon: the vectors
 * are read from the document itself, so a document that drifts from the code fails here.
 */
const doc = readFileSync("docs/fairness.md", "utf8");
const RAFFLE = /Raffle id `([0-9a-f-]{36})`/.exec(doc)![1]!;
const SEED = "00".repeat(31) + /then\s+`0x([0-9a-f]{2})`/.exec(doc)![1]!;
const SEED_HASH = /`seedHash = ([0-9a-f]{64})`/.exec(doc)![1]!;
const beaconPart = doc.slice(doc.indexOf("### With the beacon"));
const field = (text: string, name: string) => new RegExp(`${name} \`([0-9a-f]+)\``).exec(text)![1]!;
const BEACON_WINNERS = [...beaconPart.matchAll(/^\| (\d+) \| (\d+) \|$/gm)].map((m) => ({ n: Number(m[1]), winner: Number(m[2]) }));
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
    return {
      status: 0,
      out: JSON.parse(execFileSync(process.execPath, ["scripts/verify-draw.mjs"], { input: JSON.stringify(draw), stdio: "pipe" }).toString()),
    };
  } catch (error) {
    const failed = error as { status: number; stdout: Buffer };
    return { status: failed.status, out: JSON.parse(failed.stdout.toString()) };
  }
}

// Each case starts Node processes, slow on a busy machine.
describe("the draw verifier shared by the browser and scripts/verify-draw.mjs", { timeout: scaled(60_000) }, () => {
  it("reads the document's vectors", () => {
    expect(VECTORS.map((v) => v.n)).toEqual([1, 2, 3, 5]);
    expect(BEACON_WINNERS.map((v) => v.n)).toEqual([1, 2, 3, 5]);
  });

  it("computes the document's seed hash, roots and winners, as the server does", async () => {
    expect(seedHashOf(SEED)).toBe(SEED_HASH);
    expect(seedHash(SEED)).toBe(SEED_HASH);
    for (const { n, root, winner } of VECTORS) {
      expect(merkleRootOf(RAFFLE, tickets(n))).toBe(root);
      expect(merkleRoot(RAFFLE, tickets(n))).toBe(root);
      expect(drawWinner(SEED, RAFFLE, root, n, null)).toBe(winner);
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
        out: {
          verified: true,
          winningTicket: winner,
          merkleRoot: root,
          seedMatchesCommitment: true,
          ticketCountMatches: true,
          merkleRootMatches: true,
          winningTicketMatches: true,
        },
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
    expect(await verifyDraw({ raffleId: RAFFLE, revealed: true, status: "cancelled" })).toMatchObject({
      verified: false,
      reason: expect.stringMatching(/cancelled and refunded/),
    });
    expect(await verifyDraw(null)).toMatchObject({ verified: false });
  });

  it("quicknet's round 123, as drand publishes it, verifies against quicknet's key, and no other round does", () => {
    const publicKey = field(beaconPart, "public key");
    const signature = field(beaconPart, "signature");
    expect(publicKey).toBe(QUICKNET.publicKey);
    expect(verifyBeaconSignature(publicKey, 123, signature)).toBe(true);
    expect(verifyBeaconSignature(publicKey, 124, signature)).toBe(false);
    expect(
      verifyBeaconSignature(
        publicKey,
        123,
        signature.replace(/.$/, (c) => (c === "0" ? "1" : "0")),
      ),
    ).toBe(false);
    expect(verifyBeaconSignature(publicKey, 123, "zz")).toBe(false);
    expect(beaconRandomness(signature)).toBe(field(beaconPart, "randomness"));
    expect(new Date(roundTime(QUICKNET, 123)).toISOString()).toBe("2023-08-23T15:15:33.000Z");
    expect(roundAfter(QUICKNET, Date.parse("2023-08-23T15:15:30.000Z"))).toBe(123);
    expect(roundAfter(QUICKNET, Date.parse("2023-08-23T15:15:32.999Z"))).toBe(123);
    expect(roundAfter(QUICKNET, Date.parse("2023-08-23T15:15:33.000Z"))).toBe(124);
    expect(roundAfter(QUICKNET, 0)).toBe(1);
  });

  it("draws the document's winners with the beacon, as the server does", () => {
    const randomness = field(beaconPart, "randomness");
    for (const [i, { n, root }] of VECTORS.entries()) {
      expect(drawWinner(SEED, RAFFLE, root, n, randomness)).toBe(BEACON_WINNERS[i]!.winner);
      expect(winningTicket(SEED, RAFFLE, root, n, randomness)).toBe(BEACON_WINNERS[i]!.winner);
    }
  });

  it("agrees with the server on random draws, roots and inclusion proofs", () => {
    for (let i = 0; i < 50; i++) {
      const n = 1 + (i % 17);
      const id = randomUUID();
      const all = Array.from({ length: n }, (_, position) => ({ position, ticketId: randomUUID() }));
      const seed = randomBytes(32).toString("hex");
      const randomness = randomBytes(32).toString("hex");
      const root = merkleRoot(id, all);
      expect(merkleRootOf(id, all)).toBe(root);
      expect(drawWinner(seed, id, root, n, randomness)).toBe(winningTicket(seed, id, root, n, randomness));
      const position = i % n;
      expect(inclusionHolds(id, all[position]!, n, inclusionProof(id, all, position), root)).toBe(true);
      expect(inclusionHolds(id, { ...all[position]!, ticketId: "forged" }, n, inclusionProof(id, all, position), root)).toBe(false);
    }
  });

  it("verifies a quicknet-drawn raffle with a player's proofs, and refuses a wrong round, a forged signature, a wrong winner or a wrong proof", async () => {
    const signature = field(beaconPart, "signature");
    const { n, root } = VECTORS.at(-1)!;
    const all = tickets(n);
    const draw = {
      ...publicDraw(n, root, BEACON_WINNERS.at(-1)!.winner),
      endTime: "2023-08-23T15:15:31.500Z",
      beacon: { ...QUICKNET, chainHash: QUICKNET.hash, round: 123, signature, randomness: beaconRandomness(signature) },
      myTickets: [{ ...all[3]!, proof: inclusionProof(RAFFLE, all, 3) }],
    };
    expect(await verifyDraw(draw)).toMatchObject({ verified: true, winningTicket: BEACON_WINNERS.at(-1)!.winner });
    expect(runScript(draw)).toMatchObject({
      status: 0,
      out: { verified: true, beaconSignatureValid: true, beaconRoundIsFirstAfterEnd: true, myTicketsIncluded: true },
    });
    const failing = async (changed: object) => (await verifyDraw({ ...draw, ...changed })).checks.filter((c) => !c.ok).map((c) => c.name);
    expect(await failing({ endTime: "2023-08-23T15:15:33.000Z" })).toEqual(["beaconRoundIsFirstAfterEnd"]);
    expect(await failing({ beacon: { ...draw.beacon, round: 124 } })).toContain("beaconSignatureValid");
    expect(await failing({ beacon: { ...draw.beacon, signature: signature.replace(/^../, "a5") } })).toContain("beaconSignatureValid");
    expect(await failing({ winningTicket: (draw.winningTicket + 1) % n })).toEqual(["winningTicketMatches"]);
    expect(await failing({ myTickets: [{ ...all[3]!, proof: inclusionProof(RAFFLE, all, 2) }] })).toEqual(["myTicketsIncluded"]);
  });
});

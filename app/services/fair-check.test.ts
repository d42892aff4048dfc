import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  beaconRandomness,
  checkDraw,
  drawWinner,
  inclusionHolds,
  merkleRootOf,
  QUICKNET,
  roundAfter,
  roundTime,
  verifyBeaconSignature,
} from "./fair-check.js";
import { inclusionProof, merkleRoot, seedHash, winningTicket } from "./fairness";

/** docs/fairness.md's test vectors, read from the document itself so that it stays true. */
const doc = readFileSync(new URL("../../docs/fairness.md", import.meta.url), "utf8");
const beaconPart = doc.slice(doc.indexOf("### With the beacon"));
const field = (text: string, name: string) => new RegExp(`${name} \`([0-9a-f]+)\``).exec(text)![1]!;
const rows = (text: string) => [...text.matchAll(/^\| (\d+) \| (?:`([0-9a-f]{64})` \| )?(\d+) \|$/gm)].map((m) => ({ n: Number(m[1]), root: m[2], winner: Number(m[3]) }));

const RAFFLE = "6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
const SEED = "00".repeat(31) + "2a";
const tickets = (n: number) => Array.from({ length: n }, (_, i) => ({ position: i, ticketId: `t${i}` }));

describe("docs/fairness.md's vectors", () => {
  it("quicknet's round 123, as published by drand, verifies against quicknet's key, and no other round does", () => {
    const publicKey = field(beaconPart, "public key");
    const signature = field(beaconPart, "signature");
    expect(publicKey).toBe(QUICKNET.publicKey);
    expect(verifyBeaconSignature(publicKey, 123, signature)).toBe(true);
    expect(verifyBeaconSignature(publicKey, 124, signature)).toBe(false);
    expect(verifyBeaconSignature(publicKey, 123, signature.replace(/.$/, (c) => (c === "0" ? "1" : "0")))).toBe(false);
    expect(verifyBeaconSignature(publicKey, 123, "zz")).toBe(false);
    expect(beaconRandomness(signature)).toBe(field(beaconPart, "randomness"));
    expect(new Date(roundTime(QUICKNET, 123)).toISOString()).toBe("2023-08-23T15:15:33.000Z");
    expect(roundAfter(QUICKNET, Date.parse("2023-08-23T15:15:30.000Z"))).toBe(123);
    expect(roundAfter(QUICKNET, Date.parse("2023-08-23T15:15:32.999Z"))).toBe(123);
    expect(roundAfter(QUICKNET, Date.parse("2023-08-23T15:15:33.000Z"))).toBe(124);
    expect(roundAfter(QUICKNET, 0)).toBe(1);
  });

  it("draw the same winners in fair-check.js (the browser and the script) and in fairness.ts (the server)", () => {
    const plain = rows(doc.slice(doc.indexOf("## Test vectors"), doc.indexOf("### With the beacon")));
    const withBeacon = rows(beaconPart);
    expect(plain.map((r) => r.n)).toEqual([1, 2, 3, 5]);
    expect(withBeacon.map((r) => r.n)).toEqual([1, 2, 3, 5]);
    const randomness = field(beaconPart, "randomness");
    for (const [i, row] of plain.entries()) {
      expect(merkleRootOf(RAFFLE, tickets(row.n))).toBe(row.root);
      expect(drawWinner(SEED, RAFFLE, row.root!, row.n, null)).toBe(row.winner);
      expect(winningTicket(SEED, RAFFLE, row.root!, row.n)).toBe(row.winner);
      expect(drawWinner(SEED, RAFFLE, row.root!, row.n, randomness)).toBe(withBeacon[i]!.winner);
      expect(winningTicket(SEED, RAFFLE, row.root!, row.n, randomness)).toBe(withBeacon[i]!.winner);
    }
  });

  it("agree on random draws, roots and inclusion proofs between the two implementations", () => {
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
});

describe("checkDraw", () => {
  it("passes a quicknet-drawn raffle and fails it for a wrong round, a forged signature or a wrong winner", () => {
    const signature = field(beaconPart, "signature");
    const all = tickets(5);
    const root = merkleRootOf(RAFFLE, all);
    const draw = {
      raffleId: RAFFLE,
      status: "completed",
      endTime: "2023-08-23T15:15:31.500Z",
      seed: SEED,
      seedHash: seedHash(SEED),
      merkleRoot: root,
      tickets: all,
      winningTicket: 2,
      beacon: { ...QUICKNET, chainHash: QUICKNET.hash, round: 123, signature, randomness: beaconRandomness(signature) },
      myTickets: [{ ...all[3]!, proof: inclusionProof(RAFFLE, all, 3) }],
    };
    expect(checkDraw(draw)).toMatchObject({ ok: true, winningTicket: 2 });
    expect(checkDraw({ ...draw, endTime: "2023-08-23T15:15:33.000Z" }).checks.beaconRoundIsFirstAfterEnd).toBe(false);
    expect(checkDraw({ ...draw, beacon: { ...draw.beacon, round: 124 } }).ok).toBe(false);
    expect(checkDraw({ ...draw, winningTicket: 3 }).checks.winningTicketMatches).toBe(false);
    expect(checkDraw({ ...draw, myTickets: [{ ...all[3]!, proof: inclusionProof(RAFFLE, all, 2) }] }).checks.myTicketsIncluded).toBe(false);
  });
});

#!/usr/bin/env node
// Recomputes a raffle draw from its public JSON alone (docs/fairness.md), with nothing
// but Node's crypto. Usage: node scripts/verify-draw.mjs draw.json   (or JSON on stdin)
// Prints the recomputed winning ticket and exits 0 when everything matches, 1 otherwise.
import { createHash, createHmac } from "node:crypto";
import { readFileSync } from "node:fs";

const draw = JSON.parse(readFileSync(process.argv[2] ?? 0, "utf8"));
const sha256 = (...parts) => parts.reduce((h, p) => h.update(p), createHash("sha256")).digest();

const leaves = draw.tickets.map((t, i) => {
  if (t.position !== i) throw new Error(`ticket ${i} is out of order`);
  return sha256(Buffer.from([0]), Buffer.from(`${draw.raffleId}:${t.position}:${t.ticketId}`));
});
const tree = (nodes) => {
  if (nodes.length === 0) return sha256();
  if (nodes.length === 1) return nodes[0];
  let k = 1;
  while (k * 2 < nodes.length) k *= 2;
  return sha256(Buffer.from([1]), tree(nodes.slice(0, k)), tree(nodes.slice(k)));
};
const root = tree(leaves).toString("hex");

const n = BigInt(leaves.length);
const limit = (1n << 256n) - ((1n << 256n) % n);
let winner;
for (let counter = 0; winner === undefined; counter++) {
  const hmac = createHmac("sha256", Buffer.from(draw.seed, "hex"));
  const x = BigInt(`0x${hmac.update(`${draw.raffleId}:${root}:${counter}`).digest("hex")}`);
  if (x < limit) winner = Number(x % n);
}

const checks = {
  seedMatchesCommitment: sha256(Buffer.from(draw.seed, "hex")).toString("hex") === draw.seedHash,
  merkleRootMatches: root === draw.merkleRoot,
  winningTicketMatches: winner === draw.winningTicket,
};
console.log(JSON.stringify({ winningTicket: winner, merkleRoot: root, ...checks }));
process.exit(Object.values(checks).every(Boolean) ? 0 : 1);

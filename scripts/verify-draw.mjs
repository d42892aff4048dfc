#!/usr/bin/env node
// Recomputes a raffle draw from its public JSON alone (docs/fairness.md): the beacon
// round's BLS signature against the chain's public key and the round against the end
// time, the seed against its commitment, the Merkle root, the inclusion proofs the JSON
// carries (a signed-in player's own tickets) and the winner. The formula is
// app/services/fair-check.js (its only dependencies: @noble/curves and @noble/hashes).
// Usage: node scripts/verify-draw.mjs draw.json   (or JSON on stdin)
// Prints the recomputed winning ticket and every check; exits 0 when all pass, 1 otherwise.
import { readFileSync } from "node:fs";
import { checkDraw } from "../app/services/fair-check.js";

const draw = JSON.parse(readFileSync(process.argv[2] ?? 0, "utf8"));
const { winningTicket, merkleRoot, randomness, checks, ok } = checkDraw(draw);
console.log(JSON.stringify({ winningTicket, merkleRoot, beaconRandomness: randomness, ...checks }));
process.exit(ok ? 0 : 1);

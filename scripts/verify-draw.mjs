#!/usr/bin/env node
// Recomputes a raffle draw from its public JSON alone (docs/fairness.md), with the same
// verifier the /fair/<id> page runs in the browser (app/shared/draw-verifier.mjs): the
// beacon round's BLS signature and round, the seed against its commitment, the Merkle
// root, the inclusion proofs the JSON carries and the winner.
// Usage: node scripts/verify-draw.mjs draw.json   (or the JSON on stdin)
// Prints the verdict as JSON and exits 0 when every check holds, 1 otherwise.
import { readFileSync } from "node:fs";
import { verifyDraw } from "../app/shared/draw-verifier.mjs";

const verdict = await verifyDraw(JSON.parse(readFileSync(process.argv[2] ?? 0, "utf8")));
const checks = Object.fromEntries(verdict.checks.map((check) => [check.name, check.ok]));
console.log(
  JSON.stringify({
    verified: verdict.verified,
    winningTicket: verdict.winningTicket,
    merkleRoot: verdict.merkleRoot,
    ...(verdict.randomness ? { beaconRandomness: verdict.randomness } : {}),
    ...checks,
    ...(verdict.reason ? { reason: verdict.reason } : {}),
  }),
);
process.exit(verdict.verified ? 0 : 1);

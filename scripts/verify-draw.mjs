#!/usr/bin/env node
// Recomputes a raffle draw from its public JSON alone (docs/fairness.md), with the same
// verifier the /fair/<id> page runs in the browser (app/shared/draw-verifier.mjs): the
// beacon round's BLS signature and round, the seed against its commitment, the Merkle
// root, the inclusion proofs the JSON carries and the winner.
// Usage: node scripts/verify-draw.mjs draw.json   (or the JSON on stdin)
// Prints the verdict as JSON and exits 0 when every check holds, 1 otherwise.
//
// A player's receipt (/receipts/<id>.json, ADR 079), offline:
//   node scripts/verify-draw.mjs --receipt receipt.json [--key <the receipt key /fair publishes>]
// Prints one line per check and exits 0 when every check holds, 1 when one fails, 2 on a usage error.
import { readFileSync } from "node:fs";
import { verifyDraw } from "../app/shared/draw-verifier.mjs";
import { verifyReceipt } from "../app/shared/receipt-verifier.mjs";

const args = process.argv.slice(2);

if (args[0] === "--receipt") {
  const file = args[1];
  const keyAt = args.indexOf("--key");
  const key = keyAt === -1 ? undefined : args[keyAt + 1];
  if (!file || (keyAt !== -1 && !/^[0-9a-fA-F]{64}$/.test(key ?? ""))) {
    console.error("Usage: node scripts/verify-draw.mjs --receipt receipt.json [--key <64 hex digits>]");
    process.exit(2);
  }
  let receipt;
  try {
    receipt = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    console.error(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
  const verdict = verifyReceipt(receipt, { publicKey: key });
  console.log(`Receipt ${String(receipt?.receiptId ?? "?")} (${verdict.stage})`);
  for (const check of verdict.checks) {
    console.log(check.ok ? `  ok      ${check.label}` : `  FAILED  ${check.label}: expected ${check.expected}, found ${check.actual}`);
  }
  if (verdict.verified) {
    console.log(
      `VERIFIED: every check holds${key ? "" : `. Signed by key ${receipt.signature.publicKey}: compare it with the key /fair publishes, or pass --key`}.`,
    );
  } else {
    console.log(`NOT VERIFIED: ${verdict.reason ?? "a check failed"}. This receipt was changed or is not genuine.`);
  }
  process.exit(verdict.verified ? 0 : 1);
}

const verdict = await verifyDraw(JSON.parse(readFileSync(args[0] ?? 0, "utf8")));
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

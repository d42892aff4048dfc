// @ts-check
/**
 * Raffle Rush entry receipts (ADR 079): what a receipt's JSON (GET /receipts/<id>.json)
 * proves, checked with no help from the site. scripts/verify-draw.mjs --receipt runs it.
 *
 *  - the site signed it: Ed25519 over the receipt's canonical JSON (keys sorted, no spaces)
 *    without its `signature`, by the key /fair publishes; so no field can change unseen;
 *  - the commitment is well formed: a SHA-256 seed hash, and the beacon round is the first
 *    after the raffle's end (docs/fairness.md step 1);
 *  - the tickets are in the list: each ticket's RFC 6962 audit path leads from its leaf to
 *    the list's root (before the draw the list as it stood when the receipt was made, after
 *    it the root the draw published);
 *  - what was paid adds up: cash + bonus = the entry price × the tickets;
 *  - after the draw: the seed matches its hash, the beacon round's BLS signature verifies,
 *    the winner recomputes from seed + beacon randomness + the root, and the result (won or
 *    lost) follows from it.
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { BEACON_SCHEME, beaconRandomness, drawWinner, inclusionHolds, roundAfter, roundTime, seedHashOf, verifyBeaconSignature } from "./draw-verifier.mjs";

export const RECEIPT_FORMAT = "raffle-rush-receipt/1";
const HASH = /^[0-9a-f]{64}$/;

/**
 * The bytes a receipt's signature covers: JSON with every object's keys sorted and no
 * whitespace. Only strings, integers, booleans, null, arrays and objects occur in a receipt.
 * @param {unknown} value
 * @returns {string}
 */
export function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const record = /** @type {Record<string, unknown>} */ (value);
    return `{${Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
      .join(",")}}`;
  }
  if (typeof value === "number" && !Number.isSafeInteger(value)) throw new TypeError(`a receipt holds whole numbers only, not ${value}`);
  return JSON.stringify(value);
}

/** The message a receipt's signature signs. @param {Record<string, unknown>} receipt */
export function receiptMessage(receipt) {
  const { signature: _signature, ...signed } = receipt;
  return canonicalJson(signed);
}

/**
 * @typedef {{ name: string, label: string, ok: boolean, expected: string, actual: string }} Check
 * @typedef {{ verified: boolean, stage: "before the draw" | "after the draw" | "cancelled" | "unknown", checks: Check[], reason?: string }} ReceiptVerdict
 */

/**
 * Checks a receipt's JSON. `publicKey` (hex), when given, is the site's receipt key as
 * published: a receipt signed by any other key fails.
 * @param {any} receipt
 * @param {{ publicKey?: string }} [options]
 * @returns {ReceiptVerdict}
 */
export function verifyReceipt(receipt, options = {}) {
  /** @type {Check[]} */
  const checks = [];
  /** @param {string} name @param {string} label @param {unknown} expected @param {unknown} actual */
  const check = (name, label, expected, actual) => checks.push({ name, label, ok: expected === actual, expected: String(expected), actual: String(actual) });
  if (!receipt || typeof receipt !== "object" || receipt.format !== RECEIPT_FORMAT) {
    return { verified: false, stage: "unknown", checks, reason: `This is not a Raffle Rush receipt (format ${RECEIPT_FORMAT}).` };
  }
  const draw = receipt.draw ?? null;
  const stage = draw === null ? "before the draw" : draw.result === "cancelled" ? "cancelled" : "after the draw";
  try {
    const signature = receipt.signature ?? {};
    const key = String(signature.publicKey ?? "");
    let signed = false;
    try {
      signed = ed25519.verify(hexToBytes(String(signature.value ?? "")), utf8ToBytes(receiptMessage(receipt)), hexToBytes(key));
    } catch {
      signed = false;
    }
    check("signatureValid", "The site's Ed25519 signature covers every field of the receipt (none was changed)", "valid", signed ? "valid" : "invalid");
    if (options.publicKey) check("signedByPublishedKey", "The receipt is signed by the site's published receipt key", options.publicKey.toLowerCase(), key);

    const raffle = receipt.raffle ?? {};
    const commitment = receipt.commitment ?? {};
    check("seedHashWellFormed", "The commitment's seed hash is a SHA-256 hash", true, HASH.test(String(commitment.seedHash)));
    const beacon = commitment.beacon ?? null;
    if (beacon) {
      check("beaconScheme", `The beacon's scheme is ${BEACON_SCHEME}`, BEACON_SCHEME, beacon.scheme);
      check(
        "beaconRoundIsFirstAfterEnd",
        "The committed beacon round is the first after the raffle's end",
        roundAfter(beacon, Date.parse(raffle.endTime)),
        beacon.round,
      );
      check(
        "beaconRoundTime",
        "The round's time follows from the chain's genesis and period",
        new Date(roundTime(beacon, beacon.round)).toISOString(),
        beacon.roundTime,
      );
    }

    const tickets = /** @type {{ position: number; ticketId: string }[]} */ (Array.isArray(receipt.tickets) ? receipt.tickets : []);
    const inclusion = receipt.inclusion ?? {};
    const paths = /** @type {string[][]} */ (Array.isArray(inclusion.paths) ? inclusion.paths : []);
    const included = tickets.filter((t, i) =>
      inclusionHolds(String(raffle.id), t, Number(inclusion.listSize), paths[i] ?? [], String(inclusion.listRoot)),
    ).length;
    check(
      "ticketsIncluded",
      "Each ticket's inclusion proof leads to the ticket list's Merkle root",
      tickets.length > 0 ? tickets.length : "at least one ticket",
      included,
    );
    const paid = receipt.paid ?? {};
    check("paidAddsUp", "Cash and bonus paid add up to the entry price for each ticket", Number(raffle.entryPrice) * tickets.length, paid.cash + paid.bonus);
    check("paidTotal", "The total paid is cash plus bonus", paid.coins, paid.cash + paid.bonus);

    if (stage === "after the draw") {
      check(
        "seedMatchesCommitment",
        "SHA-256(seed) equals the seed hash committed when the raffle opened",
        commitment.seedHash,
        seedHashOf(String(draw.seed ?? "")),
      );
      check("proofAgainstPublishedRoot", "The inclusion proofs are against the Merkle root the draw published", draw.merkleRoot, inclusion.listRoot);
      check("listSizeIsTicketCount", "The list the proofs are against holds every ticket of the draw", draw.ticketCount, inclusion.listSize);
      /** @type {string | null} */
      let randomness = null;
      if (beacon) {
        const valid = verifyBeaconSignature(String(beacon.publicKey ?? ""), beacon.round, String(draw.beaconSignature ?? ""));
        check("beaconSignatureValid", "The beacon round's BLS signature verifies against the chain's public key", "valid", valid ? "valid" : "invalid");
        randomness = valid ? beaconRandomness(draw.beaconSignature) : null;
        check("beaconRandomnessMatches", "The round's randomness is SHA-256 of its signature", draw.beaconRandomness, randomness);
      }
      const winner =
        beacon && randomness === null ? null : drawWinner(String(draw.seed), String(raffle.id), String(draw.merkleRoot), Number(draw.ticketCount), randomness);
      check("winningTicketMatches", "The winning ticket recomputes from the seed, the beacon round and the ticket list", draw.winningTicket, winner);
      const mine = tickets.some((t) => t.position === winner);
      check("resultMatches", "The result (won or lost) follows from the winning ticket", mine ? "won" : "lost", draw.result);
    }
    const verified = checks.every((c) => c.ok);
    return {
      verified,
      stage,
      checks,
      ...(verified
        ? {}
        : {
            reason: checks
              .filter((c) => !c.ok)
              .map((c) => c.label)
              .join("; "),
          }),
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { verified: false, stage, checks, reason: `The receipt cannot be checked: ${reason}.` };
  }
}

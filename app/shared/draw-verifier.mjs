// @ts-check
/**
 * Raffle Rush draw verifier: the published draw formula (docs/fairness.md) and every check a
 * player can make of a draw's public JSON (GET /api/fair/<raffleId>), with no help from the
 * site. One file, three uses: the /fair/<id> page runs it in the
 * browser, scripts/verify-draw.mjs runs it in Node.js, and /fair/draw-verifier.mjs serves it
 * to download. The server draws with the same beacon and message functions, and
 * app/services/fairness/draw-math.server.ts computes the hashes with node:crypto on the hot path
 * (draw-verifier.test.ts keeps the two, and docs/fairness.md's vectors, equal).
 *
 * Its only dependencies are @noble/curves and @noble/hashes, audited pure-JS
 * implementations (`npm install @noble/curves@2 @noble/hashes@2` next to the file):
 *
 *  - the beacon: drand's "quicknet" chain (scheme bls-unchained-g1-rfc9380) signs round r
 *    as a BLS signature on G1 over sha256(uint64_be(r)), with the domain separation tag
 *    below; the public key is on G2; the round's randomness is sha256(signature);
 *  - the round a raffle waits for is the first whose time, genesis + (r − 1) × period,
 *    is after the raffle's end;
 *  - the draw: x = HMAC-SHA256(seed, "<raffleId>:<root>:<randomness>:<counter>") as a
 *    256-bit big-endian integer, rejected while x ≥ 2^256 − (2^256 mod n), winner = x mod n.
 *    A raffle whose commitment says "no beacon" (beacon: null) leaves out ":<randomness>".
 *
 *   import { verifyDraw } from "./draw-verifier.mjs";
 *   const verdict = await verifyDraw(await (await fetch(url)).json());
 *   verdict.verified; // true when every check holds
 */
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";

/** The only beacon scheme we accept: unchained rounds, signatures on G1 (RFC 9380 hashing). */
export const BEACON_SCHEME = "bls-unchained-g1-rfc9380";
/** The domain separation tag of that scheme's hash to G1. */
export const BEACON_DST = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_";

/**
 * @typedef {{ hash: string; publicKey: string; scheme: string; periodSeconds: number; genesisTime: number; beaconId?: string }} BeaconChain
 *   A drand chain: its hash, its group public key (hex, 96 bytes on G2), its scheme, its
 *   period and genesis time (Unix seconds).
 */

/** @type {BeaconChain} The League of Entropy's "quicknet" chain (its /info, as published). */
export const QUICKNET = {
  hash: "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
  publicKey:
    "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
  scheme: BEACON_SCHEME,
  periodSeconds: 3,
  genesisTime: 1692803367,
  beaconId: "quicknet",
};

/**
 * When round `round` is published (ms since the epoch).
 * @param {Pick<BeaconChain, "periodSeconds" | "genesisTime">} chain
 * @param {number} round
 */
export function roundTime(chain, round) {
  return (chain.genesisTime + (round - 1) * chain.periodSeconds) * 1000;
}

/**
 * The first round whose time is strictly after `timeMs`: the round a raffle ending then waits for.
 * @param {Pick<BeaconChain, "periodSeconds" | "genesisTime">} chain
 * @param {number} timeMs
 */
export function roundAfter(chain, timeMs) {
  const genesis = chain.genesisTime * 1000;
  if (timeMs < genesis) return 1;
  return Math.floor((timeMs - genesis) / (chain.periodSeconds * 1000)) + 2;
}

/**
 * What the beacon signs for an unchained round: sha256 of the round as 8 big-endian bytes.
 * @param {number} round
 */
export function beaconMessage(round) {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(round));
  return sha256(bytes);
}

const HEX = /^(?:[0-9a-f]{2})+$/;

/**
 * Whether `signatureHex` is the chain's BLS signature of round `round`. Malformed input is false.
 * @param {string} publicKeyHex
 * @param {number} round
 * @param {string} signatureHex
 */
export function verifyBeaconSignature(publicKeyHex, round, signatureHex) {
  if (!Number.isSafeInteger(round) || round < 1 || !HEX.test(publicKeyHex) || !HEX.test(signatureHex)) return false;
  try {
    const bls = bls12_381.shortSignatures;
    return bls.verify(hexToBytes(signatureHex), bls.hash(beaconMessage(round), BEACON_DST), hexToBytes(publicKeyHex));
  } catch {
    return false;
  }
}

/**
 * A round's randomness (hex): sha256 of its signature.
 * @param {string} signatureHex
 */
export function beaconRandomness(signatureHex) {
  return bytesToHex(sha256(hexToBytes(signatureHex)));
}

/**
 * The HMAC message of one draw attempt; `randomnessHex` null for a raffle drawn without the beacon.
 * @param {string} raffleId
 * @param {string} rootHex
 * @param {string | null} randomnessHex
 * @param {number} counter
 */
export function drawMessage(raffleId, rootHex, randomnessHex, counter) {
  return randomnessHex === null ? `${raffleId}:${rootHex}:${counter}` : `${raffleId}:${rootHex}:${randomnessHex}:${counter}`;
}

const TWO_256 = 1n << 256n;

/**
 * The winning ticket's position among `ticketCount` tickets (the rejection step removes modulo bias).
 * @param {string} seedHex
 * @param {string} raffleId
 * @param {string} rootHex
 * @param {number} ticketCount
 * @param {string | null} randomnessHex
 */
export function drawWinner(seedHex, raffleId, rootHex, ticketCount, randomnessHex) {
  if (!Number.isInteger(ticketCount) || ticketCount < 1) throw new RangeError("a draw needs at least one ticket");
  const n = BigInt(ticketCount);
  const limit = TWO_256 - (TWO_256 % n);
  const key = hexToBytes(seedHex);
  for (let counter = 0; ; counter++) {
    const x = BigInt(`0x${bytesToHex(hmac(sha256, key, utf8ToBytes(drawMessage(raffleId, rootHex, randomnessHex, counter))))}`);
    if (x < limit) return Number(x % n);
  }
}

/** @param {Uint8Array[]} parts */
function hashOf(...parts) {
  const h = sha256.create();
  for (const part of parts) h.update(part);
  return h.digest();
}

/**
 * A ticket's leaf: sha256(0x00 ‖ "<raffleId>:<position>:<ticketId>").
 * @param {string} raffleId
 * @param {{ position: number; ticketId: string }} ticket
 */
export function leafOf(raffleId, ticket) {
  return hashOf(new Uint8Array([0]), utf8ToBytes(`${raffleId}:${ticket.position}:${ticket.ticketId}`));
}

/** @param {Uint8Array[]} leaves @returns {Uint8Array} */
function treeOf(leaves) {
  if (leaves.length === 0) return sha256(new Uint8Array(0));
  if (leaves.length === 1) return /** @type {Uint8Array} */ (leaves[0]);
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return hashOf(new Uint8Array([1]), treeOf(leaves.slice(0, k)), treeOf(leaves.slice(k)));
}

/**
 * The RFC 6962 Merkle root (hex) over the tickets in position order.
 * @param {string} raffleId
 * @param {{ position: number; ticketId: string }[]} tickets
 */
export function merkleRootOf(raffleId, tickets) {
  tickets.forEach((ticket, index) => {
    if (ticket.position !== index) throw new Error(`ticket ${index} has position ${ticket.position}`);
  });
  return bytesToHex(treeOf(tickets.map((ticket) => leafOf(raffleId, ticket))));
}

/**
 * Checks a ticket's RFC 6962 audit path (sibling hashes, hex, from the leaf up) against the root.
 * @param {string} raffleId
 * @param {{ position: number; ticketId: string }} ticket
 * @param {number} size
 * @param {string[]} proof
 * @param {string} rootHex
 */
export function inclusionHolds(raffleId, ticket, size, proof, rootHex) {
  if (ticket.position < 0 || ticket.position >= size) return false;
  let fn = ticket.position;
  let sn = size - 1;
  let hash = leafOf(raffleId, ticket);
  for (const sibling of proof) {
    if (!/^[0-9a-f]{64}$/.test(sibling) || sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      hash = hashOf(new Uint8Array([1]), hexToBytes(sibling), hash);
      while (fn % 2 === 0 && fn !== 0) {
        fn >>= 1;
        sn >>= 1;
      }
    } else {
      hash = hashOf(new Uint8Array([1]), hash, hexToBytes(sibling));
    }
    fn >>= 1;
    sn >>= 1;
  }
  return sn === 0 && bytesToHex(hash) === rootHex;
}

/**
 * SHA-256 of the seed's bytes, in hex: the commitment published when the raffle opens.
 * @param {string} seedHex
 */
export function seedHashOf(seedHex) {
  if (!HEX.test(seedHex)) throw new TypeError("the seed is not a hex string");
  return bytesToHex(sha256(hexToBytes(seedHex)));
}

/**
 * @typedef {{ name: string, label: string, ok: boolean, expected: string, actual: string }} Check
 * @typedef {{ verified: boolean, drawn: boolean, checks: Check[], merkleRoot: string | null, winningTicket: number | null, randomness: string | null, reason?: string }} Verdict
 */

/** @param {string} reason @param {boolean} drawn @returns {Verdict} */
const nothingToCheck = (reason, drawn) => ({ verified: false, drawn, checks: [], merkleRoot: null, winningTicket: null, randomness: null, reason });

/**
 * Verifies a draw's public JSON: the beacon round's BLS signature against the chain's key
 * and the round against the end time, the seed against its commitment, the ticket count,
 * the Merkle root, each inclusion proof the JSON carries (a signed-in player's own
 * tickets) and the winner. `verified` is true only when every check holds. A raffle not
 * drawn yet, or cancelled and refunded, has no winner to check (`drawn` is false, `reason`
 * says why); a record that cannot be recomputed does not verify (`reason` says why).
 * @param {any} draw the public JSON of /api/fair/<raffleId>
 * @returns {Promise<Verdict>}
 */
export async function verifyDraw(draw) {
  if (!draw || typeof draw !== "object" || typeof draw.raffleId !== "string") return nothingToCheck("This is not a draw's public record.", true);
  if (!draw.revealed) return nothingToCheck("The seed is revealed after the draw.", false);
  if (draw.status !== "completed") return nothingToCheck("This raffle was cancelled and refunded: there was no draw.", false);
  try {
    const seedHex = String(draw.seed ?? "");
    const tickets = /** @type {{ position: number; ticketId: string }[]} */ (Array.isArray(draw.tickets) ? draw.tickets : []);
    const root = merkleRootOf(draw.raffleId, tickets);
    const hash = seedHashOf(seedHex);
    /** @type {Check[]} */
    const checks = [];
    /** @param {string} name @param {string} label @param {unknown} expected @param {unknown} actual */
    const check = (name, label, expected, actual) => checks.push({ name, label, ok: expected === actual, expected: String(expected), actual: String(actual) });
    const beacon = draw.beacon ?? null;
    /** @type {string | null} */
    let randomness = null;
    if (beacon) {
      check("beaconSchemeIsQuicknetKind", `The beacon's scheme is ${BEACON_SCHEME}`, BEACON_SCHEME, beacon.scheme);
      check("beaconRoundIsFirstAfterEnd", "The beacon round is the first after the raffle's end", roundAfter(beacon, Date.parse(draw.endTime)), beacon.round);
      const signed = verifyBeaconSignature(String(beacon.publicKey ?? ""), beacon.round, String(beacon.signature ?? ""));
      check("beaconSignatureValid", "The round's BLS signature verifies against the chain's public key", "valid", signed ? "valid" : "invalid");
      randomness = signed ? beaconRandomness(beacon.signature) : null;
      check("beaconRandomnessMatches", "The round's randomness is SHA-256 of its signature", beacon.randomness, randomness);
    }
    check("seedMatchesCommitment", "SHA-256(seed) equals the seed hash published at the start", draw.seedHash, hash);
    check("ticketCountMatches", "Every ticket is listed", draw.ticketCount, tickets.length);
    check("merkleRootMatches", "The Merkle root of the tickets equals the published root", draw.merkleRoot, root);
    const proofs = /** @type {{ position: number; ticketId: string; proof?: string[] }[]} */ (Array.isArray(draw.myTickets) ? draw.myTickets : []);
    if (proofs.length > 0) {
      const included = proofs.filter((t) => inclusionHolds(draw.raffleId, t, tickets.length, t.proof ?? [], root)).length;
      check("myTicketsIncluded", "Each of your tickets is in the Merkle root (its inclusion proof holds)", proofs.length, included);
    }
    const winner = beacon && randomness === null ? null : drawWinner(seedHex, draw.raffleId, root, tickets.length, randomness);
    check("winningTicketMatches", "The recomputed winning ticket equals the published one", draw.winningTicket, winner);
    return { verified: checks.every((c) => c.ok), drawn: true, checks, merkleRoot: root, winningTicket: winner, randomness };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ...nothingToCheck(`The record cannot be recomputed: ${reason}.`, true) };
  }
}

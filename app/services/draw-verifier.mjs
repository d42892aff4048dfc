// @ts-check
/**
 * Raffle Rush draw verifier (docs/fairness.md). Recomputes a draw from its public JSON
 * (GET /api/fair/<raffleId>) with nothing but the Web Crypto API, which browsers and
 * Node.js 20+ both have: no server help, no dependency. The /fair/<id> page runs this
 * very file in the browser, scripts/verify-draw.mjs runs it in Node, and the page offers
 * it to copy (ADR 030).
 *
 *   import { verifyDraw } from "./draw-verifier.mjs";
 *   const result = await verifyDraw(await (await fetch(url)).json());
 *   result.verified; // true when every check holds
 *
 * Each check is a step of docs/fairness.md; a new step of the draw (a public randomness
 * beacon, say) is one more entry in `checks`.
 */

const subtle = globalThis.crypto.subtle;
const utf8 = new TextEncoder();
const TWO_256 = 1n << 256n;

/** @param {Uint8Array} bytes */
function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {string} hex @returns {Uint8Array<ArrayBuffer>} */
export function fromHex(hex) {
  if (typeof hex !== "string" || !/^(?:[0-9a-f]{2})*$/i.test(hex)) throw new TypeError("not a hex string");
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

/** @param {...Uint8Array} parts */
function concat(...parts) {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** @param {Uint8Array<ArrayBuffer>} data @returns {Promise<Uint8Array>} */
async function sha256(data) {
  return new Uint8Array(await subtle.digest("SHA-256", data));
}

/** SHA-256 of the seed's bytes, in hex: the commitment published when the raffle opens. */
export async function seedHashOf(/** @type {string} */ seedHex) {
  return toHex(await sha256(fromHex(seedHex)));
}

/**
 * The RFC 6962 Merkle root (hex) of the tickets in position order:
 * leaf(i) = SHA-256(0x00 ‖ "<raffleId>:<i>:<ticketId>"), node = SHA-256(0x01 ‖ left ‖ right).
 * @param {string} raffleId
 * @param {{ position: number, ticketId: string }[]} tickets
 */
export async function merkleRootOf(raffleId, tickets) {
  const leaves = await Promise.all(
    tickets.map((ticket, index) => {
      if (ticket.position !== index) throw new Error(`ticket ${index} is out of order`);
      return sha256(concat(Uint8Array.of(0), utf8.encode(`${raffleId}:${ticket.position}:${ticket.ticketId}`)));
    }),
  );
  /** @param {Uint8Array[]} nodes @returns {Promise<Uint8Array>} */
  const tree = async (nodes) => {
    if (nodes.length === 0) return sha256(new Uint8Array(0));
    if (nodes.length === 1) return /** @type {Uint8Array} */ (nodes[0]);
    let k = 1;
    while (k * 2 < nodes.length) k *= 2;
    return sha256(concat(Uint8Array.of(1), await tree(nodes.slice(0, k)), await tree(nodes.slice(k))));
  };
  return toHex(await tree(leaves));
}

/**
 * The winning ticket's position: x = HMAC-SHA256(seed, "<raffleId>:<root>:<counter>") as a
 * 256-bit big-endian integer, rejected while x ≥ 2^256 − (2^256 mod n), then x mod n.
 * @param {string} seedHex @param {string} raffleId @param {string} rootHex @param {number} ticketCount
 */
export async function winningTicketOf(seedHex, raffleId, rootHex, ticketCount) {
  if (!Number.isInteger(ticketCount) || ticketCount < 1) throw new RangeError("a draw needs at least one ticket");
  const key = await subtle.importKey("raw", fromHex(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const n = BigInt(ticketCount);
  const limit = TWO_256 - (TWO_256 % n);
  for (let counter = 0; ; counter++) {
    const mac = new Uint8Array(await subtle.sign("HMAC", key, utf8.encode(`${raffleId}:${rootHex}:${counter}`)));
    const x = BigInt(`0x${toHex(mac)}`);
    if (x < limit) return Number(x % n);
  }
}

/**
 * @typedef {{ name: string, label: string, ok: boolean, expected: string, actual: string }} Check
 * @typedef {{ verified: boolean, drawn: boolean, checks: Check[], merkleRoot: string | null, winningTicket: number | null, reason?: string }} Verdict
 */

/**
 * Verifies a revealed draw. `verified` is true only when every check holds; a raffle not
 * drawn yet, or cancelled and refunded, has nothing to verify (`drawn` is false, `reason`
 * says why); a record that cannot be recomputed does not verify (`reason` says why).
 * @param {any} draw the public JSON of /api/fair/<raffleId>
 * @returns {Promise<Verdict>}
 */
export async function verifyDraw(draw) {
  if (!draw || typeof draw !== "object" || typeof draw.raffleId !== "string") {
    return { verified: false, drawn: true, checks: [], merkleRoot: null, winningTicket: null, reason: "This is not a draw's public record." };
  }
  if (!draw.revealed) {
    return { verified: false, drawn: false, checks: [], merkleRoot: null, winningTicket: null, reason: "The seed is revealed after the draw." };
  }
  if (draw.status !== "completed") {
    return { verified: false, drawn: false, checks: [], merkleRoot: null, winningTicket: null, reason: "This raffle was cancelled and refunded: there was no draw." };
  }
  try {
    const tickets = Array.isArray(draw.tickets) ? draw.tickets : [];
    const root = await merkleRootOf(draw.raffleId, tickets);
    const winner = await winningTicketOf(draw.seed, draw.raffleId, root, tickets.length);
    const hash = await seedHashOf(draw.seed);
    /** @type {Check[]} */
    const checks = [
      { name: "seedMatchesCommitment", label: "SHA-256(seed) equals the seed hash published at the start", ok: hash === draw.seedHash, expected: String(draw.seedHash), actual: hash },
      { name: "ticketCountMatches", label: "Every ticket is listed", ok: tickets.length === draw.ticketCount, expected: String(draw.ticketCount), actual: String(tickets.length) },
      { name: "merkleRootMatches", label: "The Merkle root of the tickets equals the published root", ok: root === draw.merkleRoot, expected: String(draw.merkleRoot), actual: root },
      { name: "winningTicketMatches", label: "The recomputed winning ticket equals the published one", ok: winner === draw.winningTicket, expected: String(draw.winningTicket), actual: String(winner) },
    ];
    return { verified: checks.every((check) => check.ok), drawn: true, checks, merkleRoot: root, winningTicket: winner };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { verified: false, drawn: true, checks: [], merkleRoot: null, winningTicket: null, reason: `The record cannot be recomputed: ${reason}.` };
  }
}

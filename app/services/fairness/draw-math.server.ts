import { createHmac, hash as digest } from "node:crypto";
import { drawMessage } from "~/shared/draw-verifier.mjs";

/**
 * The provably fair draw (docs/fairness.md). Pure functions, shared by the server
 * and the tests. The browser and scripts/verify-draw.mjs check draws with
 * app/shared/draw-verifier.mjs, whose message function the draw uses too
 * (draw-verifier.test.ts keeps the two in step):
 *
 *  - commit: the raffle publishes sha256(seed) when it opens;
 *  - tickets: leaf(i) = sha256(0x00 ‖ "<raffleId>:<i>:<ticketId>"), and the entry digest is
 *    the RFC 6962 Merkle root over the leaves in ticket order;
 *  - draw: x = HMAC-SHA256(seed, "<raffleId>:<root>[:<beacon randomness>]:<counter>") as a 256-bit integer,
 *    rejected while x ≥ 2^256 − (2^256 mod n) (no modulo bias), winner = x mod n;
 *  - reveal: the seed is published after the draw, so anyone can recompute it.
 */
/** A ticket as published: its position and its entry id (never the player's identity). */
export type Ticket = { position: number; ticketId: string };

// One-shot hashing without intermediate buffers: a draw of 1,000 raffles hashes about
// 40,000 times (docs/decisions/012-hot-paths.md).
const sha256 = (data: Buffer | string): Buffer => digest("sha256", data, "buffer");

export function seedHash(seedHex: string): string {
  return sha256(Buffer.from(seedHex, "hex")).toString("hex");
}

/** sha256(0x00 ‖ utf8(text)): U+0000 is the single byte 0x00 in UTF-8. */
export function leafHash(raffleId: string, ticket: Ticket): Buffer {
  return sha256(`\u0000${raffleId}:${ticket.position}:${ticket.ticketId}`);
}

/** sha256(0x01 ‖ left ‖ right) of two 32-byte hashes, built in one reused buffer (hashing reads it at once). */
const node = Buffer.alloc(65);
function nodeHash(left: Buffer, right: Buffer): Buffer {
  if (left.length !== 32 || right.length !== 32) throw new RangeError("a Merkle node joins two 32-byte hashes");
  node[0] = 1;
  left.copy(node, 1);
  right.copy(node, 33);
  return sha256(node);
}

/** The largest power of two strictly below n (n ≥ 2). */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function treeHash(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return sha256(Buffer.alloc(0));
  if (leaves.length === 1) return leaves[0]!;
  const k = split(leaves.length);
  return nodeHash(treeHash(leaves.slice(0, k)), treeHash(leaves.slice(k)));
}

/** The Merkle root (hex) over the tickets, which must be in position order 0..n-1. */
export function merkleRoot(raffleId: string, tickets: Ticket[]): string {
  tickets.forEach((ticket, index) => {
    if (ticket.position !== index) throw new Error(`ticket ${index} has position ${ticket.position}`);
  });
  return treeHash(tickets.map((ticket) => leafHash(raffleId, ticket))).toString("hex");
}

/** The audit path of ticket `index` (sibling hashes, hex, from the leaf upwards). */
export function inclusionProof(raffleId: string, tickets: Ticket[], index: number): string[] {
  const path = (leaves: Buffer[], m: number): Buffer[] => {
    if (leaves.length <= 1) return [];
    const k = split(leaves.length);
    return m < k ? [...path(leaves.slice(0, k), m), treeHash(leaves.slice(k))] : [...path(leaves.slice(k), m - k), treeHash(leaves.slice(0, k))];
  };
  return path(
    tickets.map((ticket) => leafHash(raffleId, ticket)),
    index,
  ).map((hash) => hash.toString("hex"));
}

/** Checks an audit path (RFC 6962 §2.1.1) for the ticket at `index` of `size` tickets. */
export function verifyInclusion(raffleId: string, ticket: Ticket, size: number, proof: string[], rootHex: string): boolean {
  if (ticket.position < 0 || ticket.position >= size) return false;
  let fn = ticket.position;
  let sn = size - 1;
  let hash = leafHash(raffleId, ticket);
  for (const siblingHex of proof) {
    if (!/^[0-9a-f]{64}$/i.test(siblingHex)) return false;
    const sibling = Buffer.from(siblingHex, "hex");
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      hash = nodeHash(sibling, hash);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn >>= 1;
          sn >>= 1;
        }
      }
    } else {
      hash = nodeHash(hash, sibling);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return sn === 0 && hash.toString("hex") === rootHex;
}

const TWO_256 = 1n << 256n;

/**
 * The winning ticket's position among `ticketCount` tickets; `randomnessHex` is the beacon
 * round's randomness, or null for a raffle committed without a beacon (the message then
 * leaves it out). The same formula as draw-verifier.mjs's drawWinner, on node:crypto.
 */
export function winningTicket(seedHex: string, raffleId: string, rootHex: string, ticketCount: number, randomnessHex: string | null = null): number {
  if (!Number.isInteger(ticketCount) || ticketCount < 1) throw new RangeError("a draw needs at least one ticket");
  const n = BigInt(ticketCount);
  const limit = TWO_256 - (TWO_256 % n);
  const key = Buffer.from(seedHex, "hex");
  for (let counter = 0; ; counter++) {
    const digest = createHmac("sha256", key)
      .update(drawMessage(raffleId, rootHex, randomnessHex, counter), "utf8")
      .digest("hex");
    const x = BigInt(`0x${digest}`);
    if (x < limit) return Number(x % n);
  }
}

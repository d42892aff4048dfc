import { beacon } from "~/infra/beacon.server";
import { recentDraws } from "~/models/raffles/raffle-board.server";
import { fairDrawRow, raffleExists } from "~/models/raffles/raffle.server";
import { displayName } from "~/shared/display-name";
import { beaconRandomness, roundTime } from "~/shared/draw-verifier.mjs";
import { inclusionProof, merkleRoot, seedHash, verifyInclusion, winningTicket, type Ticket } from "~/services/fairness/draw-math.server";
import { coinsToDecimal } from "~/shared/money";
import { writePageCursor, type PageCursor } from "~/shared/page-cursor";
import { UUID } from "~/shared/uuid";

/**
 * The public record of a draw (docs/fairness.md): before the draw the commitment
 * (seed hash, and the beacon chain and round, or `beacon: null` for "no beacon") and the
 * rules; after it the seed, the tickets, the Merkle root, the beacon round's signature,
 * the winning ticket and our own recomputation, or why it was cancelled. A signed-in player also gets the
 * inclusion proof of each of their tickets.
 */
export async function getFairDraw(raffleId: string, viewerId?: string) {
  const raffle = await fairDrawRow(raffleId);
  if (!raffle) return undefined;
  const tickets: Ticket[] = raffle.entries.map((e) => ({ position: e.position, ticketId: e.id }));
  const round = raffle.beaconRound === null ? null : Number(raffle.beaconRound);
  const beacon =
    raffle.chain && round !== null
      ? {
          chainHash: raffle.chain.hash,
          publicKey: raffle.chain.publicKey,
          scheme: raffle.chain.scheme,
          beaconId: raffle.chain.beaconId,
          periodSeconds: raffle.chain.periodSeconds,
          genesisTime: Number(raffle.chain.genesisTime),
          round,
          roundTime: new Date(roundTime({ periodSeconds: raffle.chain.periodSeconds, genesisTime: Number(raffle.chain.genesisTime) }, round)).toISOString(),
        }
      : null;
  const base = {
    raffleId: raffle.id,
    kind: raffle.kind,
    tier: raffle.tier,
    status: raffle.status,
    entryPrice: coinsToDecimal(raffle.entryPrice),
    startTime: raffle.startsAt.toISOString(),
    endTime: raffle.endsAt.toISOString(),
    /** Closed early by an admin: when (now its end; its round the first after), and what it was first committed to. */
    closedEarly: raffle.closedAt
      ? {
          closedAt: raffle.closedAt.toISOString(),
          scheduledEndTime: raffle.scheduledEndsAt!.toISOString(),
          scheduledBeaconRound: raffle.scheduledBeaconRound === null ? null : Number(raffle.scheduledBeaconRound),
        }
      : null,
    seedHash: raffle.seedHash,
    beacon,
    ticketCount: tickets.length,
    algorithm: beacon
      ? "docs/fairness.md: RFC 6962 Merkle root over sha256(0x00 ‖ raffleId:position:ticketId); randomness = sha256(the beacon round's BLS signature); winner = HMAC-SHA256(seed, raffleId:root:randomness:counter) with rejection sampling"
      : "docs/fairness.md: no beacon; RFC 6962 Merkle root over sha256(0x00 ‖ raffleId:position:ticketId); winner = HMAC-SHA256(seed, raffleId:root:counter) with rejection sampling",
  };
  const mine = viewerId ? raffle.entries.filter((e) => e.userId === viewerId) : [];
  if (raffle.status === "active") {
    // Past its end and not yet drawn: waiting for its beacon round (or the next scheduler pass).
    const drawing = raffle.endsAt.getTime() <= Date.now();
    return { ...base, revealed: false as const, drawing, myTickets: mine.map((e) => ({ position: e.position, ticketId: e.id })) };
  }
  const signature = raffle.beaconSignature;
  const randomness = signature ? beaconRandomness(signature) : null;
  const root = raffle.merkleRoot ?? (tickets.length ? merkleRoot(raffle.id, tickets) : null);
  const recomputed = root && raffle.status === "completed" ? winningTicket(raffle.seed, raffle.id, root, tickets.length, randomness) : null;
  return {
    ...base,
    // The signature was verified when the draw was made; verifying it again on every view
    // would cost a pairing (hundreds of ms of CPU) per request: the reader checks it.
    beacon: beacon && { ...beacon, signature, randomness },
    revealed: true as const,
    drawing: false,
    cancelReason: raffle.status === "cancelled" ? (raffle.cancelReason ?? "fewer than two players") : null,
    seed: raffle.seed,
    seedMatchesCommitment: seedHash(raffle.seed) === raffle.seedHash,
    merkleRoot: root,
    tickets,
    winningTicket: raffle.winningTicket,
    recomputedWinningTicket: recomputed,
    winner: raffle.status === "completed" ? displayName(raffle.winner) : null,
    /** The winner is one of the demo crowd's simulated players. */
    winnerIsDemo: raffle.status === "completed" && raffle.winner?.isDemo === true,
    pot: raffle.finalPot === null ? null : coinsToDecimal(raffle.finalPot),
    prize: raffle.prize === null ? null : coinsToDecimal(raffle.prize),
    drawnAt: raffle.drawnAt?.toISOString() ?? null,
    myTickets: mine.map((e) => {
      const proof = root ? inclusionProof(raffle.id, tickets, e.position) : [];
      return {
        position: e.position,
        ticketId: e.id,
        proof,
        verified: root ? verifyInclusion(raffle.id, { position: e.position, ticketId: e.id }, tickets.length, proof, root) : false,
      };
    }),
  };
}

export type FairDraw = NonNullable<Awaited<ReturnType<typeof getFairDraw>>>;

/** How many draws /fair lists per page. */
export const DRAWS_PER_PAGE = 20;

/**
 * What the /fair search box asks for: a full raffle id (as the cards, the winners list and
 * the draw pages show it), or a message saying what to type instead.
 */
export function readRaffleSearch(text: string): { raffleId: string } | { problem: string } {
  const id = text.trim().toLowerCase();
  return UUID.test(id) ? { raffleId: id } : { problem: "Enter a raffle id as the draw pages show it, like 6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b." };
}

export { raffleExists };

/**
 * The recent draws /fair lists, newest first, a page at a time after the cursor `before`.
 * `completedEarly` marks a raffle an admin completed before its scheduled end.
 */
export async function listRecentDraws(before?: PageCursor) {
  const rows = await recentDraws(DRAWS_PER_PAGE + 1, before);
  const draws = rows.slice(0, DRAWS_PER_PAGE).map((r) => ({
    raffleId: r.id,
    kind: r.kind,
    tier: r.tier,
    entryPrice: coinsToDecimal(r.entryPrice),
    ticketCount: r.ticketCount,
    pot: r.finalPot === null ? null : coinsToDecimal(r.finalPot),
    endTime: r.endsAt.toISOString(),
    drawnAt: r.drawnAt!.toISOString(),
    completedEarly: r.closedAt !== null || r.drawnAt!.getTime() < r.endsAt.getTime(),
  }));
  const last = draws.at(-1);
  return { draws, nextCursor: rows.length > DRAWS_PER_PAGE && last ? writePageCursor(last.drawnAt, last.raffleId) : null };
}

/** Whether new raffles are joined to the public beacon (off: BEACON_URLS=off, or a demo without relays); /fair says so when not. */
export function drawsJoinBeacon(): boolean {
  return beacon().commits;
}

import { db } from "~/models/db.server";
import { displayName } from "./display-name";
import { inclusionProof, merkleRoot, seedHash, verifyInclusion, winningTicket, type Ticket } from "./fairness";
import { coinsToDecimal } from "./money";

/**
 * The public record of a draw (docs/fairness.md): before the draw the commitment
 * (seed hash) and the rules; after it the seed, the tickets, the Merkle root, the
 * winning ticket and our own recomputation. A signed-in player also gets the
 * inclusion proof of each of their tickets.
 */
export async function getFairDraw(raffleId: string, viewerId?: string) {
  const raffle = await db().raffle.findUnique({
    where: { id: raffleId },
    select: {
      id: true,
      kind: true,
      tier: true,
      status: true,
      entryPrice: true,
      startsAt: true,
      endsAt: true,
      seedHash: true,
      seed: true,
      merkleRoot: true,
      winningTicket: true,
      finalPot: true,
      prize: true,
      drawnAt: true,
      winner: { select: { username: true, firstName: true } },
      entries: { orderBy: { position: "asc" }, select: { id: true, position: true, userId: true } },
    },
  });
  if (!raffle) return undefined;
  const tickets: Ticket[] = raffle.entries.map((e) => ({ position: e.position, ticketId: e.id }));
  const base = {
    raffleId: raffle.id,
    kind: raffle.kind,
    tier: raffle.tier,
    status: raffle.status,
    entryPrice: coinsToDecimal(raffle.entryPrice),
    startTime: raffle.startsAt.toISOString(),
    endTime: raffle.endsAt.toISOString(),
    seedHash: raffle.seedHash,
    ticketCount: tickets.length,
    algorithm: "docs/fairness.md: RFC 6962 Merkle root over sha256(0x00 ‖ raffleId:position:ticketId); winner = HMAC-SHA256(seed, raffleId:root:counter) with rejection sampling",
  };
  const mine = viewerId ? raffle.entries.filter((e) => e.userId === viewerId) : [];
  if (raffle.status === "active") {
    return { ...base, revealed: false as const, myTickets: mine.map((e) => ({ position: e.position, ticketId: e.id })) };
  }
  const root = raffle.merkleRoot ?? (tickets.length ? merkleRoot(raffle.id, tickets) : null);
  const recomputed = root && raffle.status === "completed" ? winningTicket(raffle.seed, raffle.id, root, tickets.length) : null;
  return {
    ...base,
    revealed: true as const,
    seed: raffle.seed,
    seedMatchesCommitment: seedHash(raffle.seed) === raffle.seedHash,
    merkleRoot: root,
    tickets,
    winningTicket: raffle.winningTicket,
    recomputedWinningTicket: recomputed,
    winner: raffle.status === "completed" ? displayName(raffle.winner) : null,
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

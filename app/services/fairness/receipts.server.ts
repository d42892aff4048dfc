import { receiptPublicKey, signReceiptMessage } from "~/infra/receipt-key.server";
import { ownTicket } from "~/models/fairness/receipt.server";
import { fairDrawRow } from "~/models/raffles/raffle.server";
import { beaconRandomness, roundTime } from "~/shared/draw-verifier.mjs";
import { RECEIPT_FORMAT, receiptMessage } from "~/shared/receipt-verifier.mjs";
import { inclusionProof, merkleRoot, type Ticket } from "~/services/fairness/draw-math.server";

/**
 * A player's receipt for one ticket (ADR 079): the raffle, its commitment, the ticket, what
 * it cost and when; the ticket's inclusion proof against the ticket list (before the draw
 * the list as it stands, after it the root the draw published); after the draw the seed,
 * the beacon round, the winning ticket and the result. Signed by the site's receipt key,
 * so that `scripts/verify-draw.mjs --receipt` can check every field offline.
 */
export type Receipt = {
  format: typeof RECEIPT_FORMAT;
  receiptId: string;
  issuedAt: string;
  player: string | null;
  raffle: { id: string; kind: string; tier: string; entryPrice: number; startTime: string; endTime: string };
  commitment: {
    seedHash: string;
    beacon: { chainHash: string; publicKey: string; scheme: string; periodSeconds: number; genesisTime: number; round: number; roundTime: string } | null;
  };
  tickets: Ticket[];
  paid: { coins: number; cash: number; bonus: number };
  enteredAt: string;
  status: "open" | "drawing" | "drawn" | "cancelled";
  inclusion: { final: boolean; listSize: number; listRoot: string; paths: string[][] };
  draw:
    | null
    | {
        result: "won" | "lost";
        seed: string;
        merkleRoot: string;
        ticketCount: number;
        beaconSignature: string | null;
        beaconRandomness: string | null;
        winningTicket: number;
        prize: number | null;
        drawnAt: string | null;
      }
    | { result: "cancelled"; reason: string; drawnAt: string | null };
  links: { receipt: string; json: string; fairDraw: string; check: string };
  signature: { algorithm: "Ed25519"; publicKey: string; value: string };
};

/** The receipt of the player's own ticket `receiptId`, or undefined (another's, or none). */
export async function getReceipt(userId: string, receiptId: string, now = new Date()): Promise<Receipt | undefined> {
  const ticket = await ownTicket(userId, receiptId);
  if (!ticket) return undefined;
  const raffle = await fairDrawRow(ticket.raffleId);
  if (!raffle) return undefined;
  const tickets: Ticket[] = raffle.entries.map((e) => ({ position: e.position, ticketId: e.id }));
  const round = raffle.beaconRound === null ? null : Number(raffle.beaconRound);
  const chain = raffle.chain && round !== null ? { periodSeconds: raffle.chain.periodSeconds, genesisTime: Number(raffle.chain.genesisTime) } : null;
  const drawn = raffle.status === "completed" && raffle.merkleRoot !== null && raffle.winningTicket !== null;
  // After the draw, the proof is against the root the draw published; before, the list as it stands.
  const listRoot = drawn ? raffle.merkleRoot! : merkleRoot(raffle.id, tickets);
  const mine: Ticket = { position: ticket.position, ticketId: ticket.id };
  const signature = raffle.beaconSignature;
  const unsigned: Omit<Receipt, "signature"> = {
    format: RECEIPT_FORMAT,
    receiptId: ticket.id,
    issuedAt: now.toISOString(),
    player: ticket.user.username,
    raffle: {
      id: raffle.id,
      kind: raffle.kind,
      tier: raffle.tier,
      entryPrice: Number(raffle.entryPrice),
      startTime: raffle.startsAt.toISOString(),
      endTime: raffle.endsAt.toISOString(),
    },
    commitment: {
      seedHash: raffle.seedHash,
      beacon:
        raffle.chain && chain && round !== null
          ? {
              chainHash: raffle.chain.hash,
              publicKey: raffle.chain.publicKey,
              scheme: raffle.chain.scheme,
              ...chain,
              round,
              roundTime: new Date(roundTime(chain, round)).toISOString(),
            }
          : null,
    },
    tickets: [mine],
    paid: { coins: Number(ticket.cash + ticket.bonus), cash: Number(ticket.cash), bonus: Number(ticket.bonus) },
    enteredAt: ticket.createdAt.toISOString(),
    status: raffle.status === "cancelled" ? "cancelled" : drawn ? "drawn" : raffle.endsAt.getTime() <= now.getTime() ? "drawing" : "open",
    inclusion: { final: drawn, listSize: tickets.length, listRoot, paths: [inclusionProof(raffle.id, tickets, ticket.position)] },
    draw:
      raffle.status === "cancelled"
        ? { result: "cancelled", reason: raffle.cancelReason ?? "fewer than two players", drawnAt: raffle.drawnAt?.toISOString() ?? null }
        : drawn
          ? {
              result: raffle.winningTicket === ticket.position ? "won" : "lost",
              seed: raffle.seed,
              merkleRoot: raffle.merkleRoot!,
              ticketCount: tickets.length,
              beaconSignature: signature,
              beaconRandomness: signature ? beaconRandomness(signature) : null,
              winningTicket: raffle.winningTicket!,
              prize: raffle.winningTicket === ticket.position && raffle.prize !== null ? Number(raffle.prize) : null,
              drawnAt: raffle.drawnAt?.toISOString() ?? null,
            }
          : null,
    links: {
      receipt: `/receipts/${ticket.id}`,
      json: `/receipts/${ticket.id}/receipt.json`,
      fairDraw: `/fair/${raffle.id}`,
      check: `/fair/${raffle.id}#check-title`,
    },
  };
  return { ...unsigned, signature: { algorithm: "Ed25519", publicKey: receiptPublicKey(), value: signReceiptMessage(receiptMessage(unsigned)) } };
}

export { receiptPublicKey };

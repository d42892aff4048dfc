import type { Raffle } from "~/generated/prisma/client";
import { db } from "../db.server";

/**
 * The events of the public feed of draws (/fair/feed.xml): a raffle's commitment, at the
 * time it was made, and its result (drawn or cancelled), at the time of the draw. Newest
 * first by (time, raffle id, event), a page at a time after a cursor of the same three.
 */
export type FeedEvent = "commitment" | "result";

export type FeedCursor = { at: Date; raffleId: string; event: FeedEvent };

export type FeedRow = Pick<
  Raffle,
  | "id"
  | "kind"
  | "tier"
  | "entryPrice"
  | "startsAt"
  | "endsAt"
  | "status"
  | "seedHash"
  | "merkleRoot"
  | "winningTicket"
  | "ticketCount"
  | "drawnAt"
  | "beaconChain"
  | "beaconSignature"
  | "cancelReason"
> & {
  event: FeedEvent;
  at: Date;
  /** Revealed only on a result: the seed stays secret until the draw. */
  seed: string | null;
  beaconRound: number | null;
  /** The round's time (ms since the epoch), from the chain the commitment names. */
  roundTimeMs: number | null;
};

export async function feedEvents(limit: number, before?: FeedCursor): Promise<FeedRow[]> {
  // Each branch reads its own index in order and stops at `limit`; the union is merged.
  const at = before?.at ?? new Date("9999-12-31T00:00:00Z");
  const id = before?.raffleId ?? "ffffffff-ffff-ffff-ffff-ffffffffffff";
  const event = before?.event ?? "result";
  return db().$queryRaw<FeedRow[]>`
    SELECT r.id::text AS id, r.kind::text AS kind, r.tier, r.entry_price AS "entryPrice", r.starts_at AS "startsAt",
           r.ends_at AS "endsAt", r.status::text AS status, r.seed_hash AS "seedHash", r.merkle_root AS "merkleRoot",
           r.winning_ticket AS "winningTicket", r.ticket_count AS "ticketCount", r.drawn_at AS "drawnAt",
           r.beacon_chain AS "beaconChain", r.beacon_signature AS "beaconSignature", r.cancel_reason AS "cancelReason",
           e.event, e.at, CASE WHEN e.event = 'result' THEN r.seed END AS seed, r.beacon_round::float8 AS "beaconRound",
           ((c.genesis_time + (r.beacon_round - 1) * c.period_seconds) * 1000)::float8 AS "roundTimeMs"
    FROM (
      (SELECT id, 'commitment' AS event, created_at AS at FROM raffles
        WHERE created_at <= ${at} AND (created_at, id, 'commitment') < (${at}, ${id}::uuid, ${event})
        ORDER BY created_at DESC, id DESC LIMIT ${limit})
      UNION ALL
      (SELECT id, 'result' AS event, drawn_at AS at FROM raffles
        WHERE status IN ('completed', 'cancelled') AND drawn_at IS NOT NULL
          AND drawn_at <= ${at} AND (drawn_at, id, 'result') < (${at}, ${id}::uuid, ${event})
        ORDER BY drawn_at DESC, id DESC LIMIT ${limit})
    ) e
    JOIN raffles r ON r.id = e.id
    LEFT JOIN beacon_chains c ON c.hash = r.beacon_chain
    ORDER BY e.at DESC, e.id DESC, e.event DESC
    LIMIT ${limit}`;
}

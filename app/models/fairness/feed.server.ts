import type { Raffle } from "~/generated/prisma/client";
import { db } from "../db.server";

/**
 * The events of the public feed of draws (/fair/feed.xml): a raffle's commitment, at the
 * time it was made, its early close by an admin (its new end and round), at that time, and
 * its result (drawn or cancelled), at the time of the draw. Newest
 * first by (time, raffle id, event), a page at a time after a cursor of the same three.
 */
export type FeedEvent = "commitment" | "closed" | "result";

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
  | "closedAt"
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
           CASE WHEN k.first THEN r.scheduled_ends_at ELSE r.ends_at END AS "endsAt", r.status::text AS status,
           r.seed_hash AS "seedHash", r.merkle_root AS "merkleRoot",
           r.winning_ticket AS "winningTicket", r.ticket_count AS "ticketCount", r.drawn_at AS "drawnAt",
           k.chain AS "beaconChain", r.beacon_signature AS "beaconSignature", r.cancel_reason AS "cancelReason",
           CASE WHEN e.event = 'commitment' THEN NULL ELSE r.closed_at END AS "closedAt", e.event, e.at,
           CASE WHEN e.event = 'result' THEN r.seed END AS seed, k.round::float8 AS "beaconRound",
           ((c.genesis_time + (k.round - 1) * c.period_seconds) * 1000)::float8 AS "roundTimeMs"
    FROM (
      (SELECT id, 'commitment' AS event, created_at AS at FROM raffles
        WHERE created_at <= ${at} AND (created_at, id, 'commitment') < (${at}, ${id}::uuid, ${event})
        ORDER BY created_at DESC, id DESC LIMIT ${limit})
      UNION ALL
      (SELECT id, 'closed' AS event, closed_at AS at FROM raffles
        WHERE closed_at IS NOT NULL AND closed_at <= ${at} AND (closed_at, id, 'closed') < (${at}, ${id}::uuid, ${event})
        ORDER BY closed_at DESC, id DESC LIMIT ${limit})
      UNION ALL
      (SELECT id, 'result' AS event, drawn_at AS at FROM raffles
        WHERE status IN ('completed', 'cancelled') AND drawn_at IS NOT NULL
          AND drawn_at <= ${at} AND (drawn_at, id, 'result') < (${at}, ${id}::uuid, ${event})
        ORDER BY drawn_at DESC, id DESC LIMIT ${limit})
    ) e
    JOIN raffles r ON r.id = e.id
    -- A commitment shows what was first committed to, also for a raffle closed early since.
    CROSS JOIN LATERAL (
      SELECT e.event = 'commitment' AND r.closed_at IS NOT NULL AS first,
             CASE WHEN e.event = 'commitment' AND r.closed_at IS NOT NULL THEN r.scheduled_beacon_chain ELSE r.beacon_chain END AS chain,
             CASE WHEN e.event = 'commitment' AND r.closed_at IS NOT NULL THEN r.scheduled_beacon_round ELSE r.beacon_round END AS round
    ) k
    LEFT JOIN beacon_chains c ON c.hash = k.chain
    ORDER BY e.at DESC, e.id DESC, e.event DESC
    LIMIT ${limit}`;
}

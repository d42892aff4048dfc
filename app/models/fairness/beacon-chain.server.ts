import type { BeaconChain as BeaconChainModel } from "~/generated/prisma/client";
import type { BeaconChain } from "~/shared/draw-verifier.mjs";
import { db } from "../db.server";

/**
 * The beacon chains raffles' commitments name, and the rounds due raffles wait for.
 */

/** A chain's row as read: genesis_time (bigint) is cast to float8, a number, as the verifier takes it. */
type StoredChain = Pick<BeaconChainModel, "hash" | "publicKey" | "scheme" | "periodSeconds" | "beaconId"> & { genesisTime: number };

/** Stores the chain's facts once; returns the facts stored under its hash (first writer wins). */
export async function saveBeaconChain(chain: BeaconChain): Promise<BeaconChain> {
  await db().$executeRaw`
    INSERT INTO beacon_chains (hash, public_key, scheme, period_seconds, genesis_time, beacon_id)
    VALUES (${chain.hash}, ${chain.publicKey}, ${chain.scheme}, ${chain.periodSeconds}, ${chain.genesisTime}, ${chain.beaconId ?? null})
    ON CONFLICT (hash) DO NOTHING`;
  const [stored] = await db().$queryRaw<StoredChain[]>`
    SELECT hash, public_key AS "publicKey", scheme, period_seconds AS "periodSeconds", genesis_time::float8 AS "genesisTime",
           beacon_id AS "beaconId"
    FROM beacon_chains WHERE hash = ${chain.hash}`;
  return { ...stored!, beaconId: stored!.beaconId ?? undefined };
}

export type DueRound = { chain: BeaconChain; round: number; raffles: number };

/**
 * The beacon rounds that active raffles ended by `now` wait for, each with its chain's
 * facts: one row per round, however many raffles share it. One short query: the caller
 * holds no connection while it waits for the rounds.
 */
export async function dueBeaconRounds(now: Date): Promise<DueRound[]> {
  const rows = await db().$queryRaw<(StoredChain & { round: number; raffles: number })[]>`
    SELECT c.hash, c.public_key AS "publicKey", c.scheme, c.period_seconds AS "periodSeconds",
           c.genesis_time::float8 AS "genesisTime", c.beacon_id AS "beaconId",
           r.beacon_round::float8 AS round, count(*)::int AS raffles
    FROM raffles r JOIN beacon_chains c ON c.hash = r.beacon_chain
    WHERE r.status = 'active' AND r.ends_at <= ${now} AND r.beacon_round IS NOT NULL
    GROUP BY c.hash, r.beacon_round ORDER BY r.beacon_round`;
  return rows.map(({ round, raffles, ...chain }) => ({ chain: { ...chain, beaconId: chain.beaconId ?? undefined }, round, raffles }));
}

import type { Raffle, RaffleKind } from "~/generated/prisma/client";
import { db, type Tx } from "../db.server";

export type NewRaffle = {
  scheduleId?: string;
  slot?: number;
  kind: RaffleKind;
  tier: string;
  entryPrice: bigint;
  startsAt: Date;
  endsAt: Date;
  vipOnly?: boolean;
  maxTicketsPerPlayer?: number;
};

/**
 * Inserts the raffle with its commitment (the seed's hash, the beacon chain and round or
 * none); a scheduled slot's start taken already inserts nothing (undefined).
 */
export async function insertRaffle(
  tx: Tx,
  raffle: NewRaffle,
  commitment: { seedHash: string; seed: string; beacon: { chain: string; round: number } | null },
): Promise<string | undefined> {
  const rows = await tx.$queryRaw<Pick<Raffle, "id">[]>`
    INSERT INTO raffles (schedule_id, slot, kind, tier, entry_price, starts_at, ends_at, vip_only,
                         max_tickets_per_player, seed_hash, seed, beacon_chain, beacon_round)
    VALUES (${raffle.scheduleId ?? null}::uuid, ${raffle.slot ?? 0}, ${raffle.kind}::"RaffleKind", ${raffle.tier},
            ${raffle.entryPrice}, ${raffle.startsAt}, ${raffle.endsAt}, ${raffle.vipOnly ?? false},
            ${raffle.maxTicketsPerPlayer ?? 10}, ${commitment.seedHash}, ${commitment.seed},
            ${commitment.beacon?.chain ?? null}, ${commitment.beacon?.round ?? null}::int8)
    ON CONFLICT (schedule_id, slot, starts_at) DO NOTHING
    RETURNING id::text AS id`;
  return rows[0]?.id;
}

/** Raffle rows as the rules need them. The seed is selected only where a draw needs it. */
export type LockedRaffle = Pick<
  Raffle,
  "id" | "kind" | "tier" | "entryPrice" | "startsAt" | "endsAt" | "status" | "vipOnly" | "maxTicketsPerPlayer" | "ticketCount" | "playerCount" | "seed"
> & {
  /** The beacon round the commitment names, or null: drawn without a beacon. Read as float8: a number. */
  beaconRound: number | null;
  /** When an admin closed it early, or null. */
  closedAt: Date | null;
};

/**
 * Locks a raffle row for an entry or a draw. `skipLocked` returns nothing when another
 * transaction holds it (the scheduler moves on); otherwise this waits for the lock.
 */
export async function lockRaffle(tx: Tx, id: string, { skipLocked = false } = {}): Promise<LockedRaffle | undefined> {
  const rows = skipLocked
    ? await tx.$queryRaw<LockedRaffle[]>`
        SELECT id::text AS id, kind, tier, entry_price AS "entryPrice", starts_at AS "startsAt", ends_at AS "endsAt",
               status, vip_only AS "vipOnly", max_tickets_per_player AS "maxTicketsPerPlayer",
               ticket_count AS "ticketCount", player_count AS "playerCount", seed, beacon_round::float8 AS "beaconRound", closed_at AS "closedAt"
        FROM raffles WHERE id = ${id}::uuid FOR UPDATE SKIP LOCKED`
    : await tx.$queryRaw<LockedRaffle[]>`
        SELECT id::text AS id, kind, tier, entry_price AS "entryPrice", starts_at AS "startsAt", ends_at AS "endsAt",
               status, vip_only AS "vipOnly", max_tickets_per_player AS "maxTicketsPerPlayer",
               ticket_count AS "ticketCount", player_count AS "playerCount", seed, beacon_round::float8 AS "beaconRound", closed_at AS "closedAt"
        FROM raffles WHERE id = ${id}::uuid FOR UPDATE`;
  return rows[0];
}

/**
 * Closes a locked, active raffle early: no entry is taken from now on (enter_raffles reads
 * closed_at under the same lock), it ends `at`, and it waits for the beacon round given, the
 * first after `at`, which the draw passes then draw it with. What it was committed to first is kept.
 */
export async function closeRaffle(tx: Tx, id: string, at: Date, beacon: { chain: string; round: number }): Promise<void> {
  await tx.$executeRaw`
    UPDATE raffles SET closed_at = ${at}, scheduled_ends_at = ends_at, scheduled_beacon_chain = beacon_chain,
                       scheduled_beacon_round = beacon_round, ends_at = ${at}, beacon_chain = ${beacon.chain}, beacon_round = ${beacon.round}::int8
    WHERE id = ${id}::uuid AND status = 'active' AND closed_at IS NULL`;
}

/** Whether `userId` holds a ticket in the raffle (compared as text: an actor may be a name, not an id). */
export async function holdsTicket(tx: Tx, raffleId: string, userId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM entries WHERE raffle_id = ${raffleId}::uuid AND user_id::text = ${userId} LIMIT 1`;
  return rows.length > 0;
}

/** A raffle's cash and bonus pots. */
export async function potAccounts(tx: Tx, raffleId: string): Promise<{ cash: string; bonus: string }> {
  const pots = await tx.ledgerAccount.findMany({ where: { raffleId }, select: { id: true, kind: true } });
  const id = (kind: string) => {
    const pot = pots.find((p) => p.kind === kind);
    if (!pot) throw new Error(`raffle ${raffleId} has no ${kind} account`);
    return pot.id;
  };
  return { cash: id("raffle_pot"), bonus: id("raffle_pot_bonus") };
}

/** Scheduled raffles that started at or after `since` (what the scheduler has opened). */
export function listOpenSlots(since: Date) {
  return db().raffle.findMany({
    where: { scheduleId: { not: null }, startsAt: { gte: since } },
    select: { scheduleId: true, slot: true, startsAt: true },
  });
}

/**
 * Whether a raffle that ended in (`now` − `withinMs`, `now`] is still active: it is being
 * drawn, or is about to be (a beacon round it waits for included). One probe of the
 * (status, ends_at) index.
 */
export async function rafflesAwaitDraw(now: Date, withinMs: number): Promise<boolean> {
  const [row] = await db().$queryRaw<{ waiting: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM raffles WHERE status = 'active' AND ends_at <= ${now} AND ends_at > ${new Date(now.getTime() - withinMs)}) AS waiting`;
  return row?.waiting ?? false;
}

/** When the next active raffle ends (perhaps already past), or undefined when none is active. */
export async function nextEndOfActiveRaffle(): Promise<Date | undefined> {
  const [row] = await db().$queryRaw<{ endsAt: Date | null }[]>`
    SELECT min(ends_at) AS "endsAt" FROM raffles WHERE status = 'active'`;
  return row?.endsAt ?? undefined;
}

/**
 * One entry of a batch: for `userId`, or for the user of the session whose token hash is
 * `sessionHash` (checked in the entry's transaction). With `window`, it counts against the
 * batch's rate limit (the sliding-window figures of app/services/system/rate-limit.server.ts).
 */
export type EntryRequest = {
  userId?: string;
  sessionHash?: string;
  raffleId: string;
  kind?: RaffleKind;
  tickets: number;
  now: Date;
  window?: { start: Date; previous: Date; overlap: number };
};

/** The batch's rate limit (its key is "<name>:<player id>") and the pause that starts a new stretch of play. */
export type EntryBatchRules = {
  limitName: string;
  limitMax: number;
  playIdleGapMs: number;
  /** Where players may play: whole countries, and regions of countries allowed only in some. */
  countries: string[];
  regions: string[];
  /** Countries whose players verify identity before entering (JURISDICTION_RULES; ADR 080). */
  verifyCountries: string[];
};

export type EntryRow = {
  outcome: string;
  tier: string | null;
  firstPosition: number | null;
  cost: bigint | null;
  balance: bigint | null;
  cap: number | null;
  excludedUntil: Date | null;
  exclusionKind: string | null;
  /** An accepted entry: the player's coins after it, and their tickets in the raffle. */
  cashBalance: bigint | null;
  bonusBalance: bigint | null;
  ticketsHeld: number | null;
  /** An accepted entry: its raffle's kind and figures after it (ADR 101). */
  raffleKind: string | null;
  rafflePot: bigint | null;
  raffleTickets: number | null;
  rafflePlayers: number | null;
  /** An accepted entry: its player, whose tickets changed (ADR 103). */
  entrantId: string | null;
};

/**
 * Applies a batch of entries in one statement (the rules are in the enter_raffles
 * function, prisma/sql/functions/enter_raffles.sql); one row per entry, in order.
 */
export async function enterRaffles(entries: EntryRequest[], rules: EntryBatchRules): Promise<EntryRow[]> {
  const rows = await db().$queryRaw<(EntryRow & { ord: number })[]>`
    SELECT ord, outcome, tier, first_position AS "firstPosition", cost, balance, cap,
           excluded_until AS "excludedUntil", exclusion_kind AS "exclusionKind",
           cash_balance AS "cashBalance", bonus_balance AS "bonusBalance", tickets_held AS "ticketsHeld",
           raffle_kind AS "raffleKind", raffle_pot AS "rafflePot", raffle_tickets AS "raffleTickets", raffle_players AS "rafflePlayers",
           entrant_id AS "entrantId"
    FROM enter_raffles(
      ${entries.map((e) => e.userId ?? null)}::uuid[], ${entries.map((e) => e.sessionHash ?? null)}::text[],
      ${entries.map((e) => e.raffleId)}::uuid[], ${entries.map((e) => e.kind ?? null)}::text[],
      ${entries.map((e) => e.tickets)}::int[], ${entries.map((e) => e.now.toISOString())}::timestamptz[],
      ${entries.map((e) => e.window?.start.toISOString() ?? null)}::timestamptz[],
      ${entries.map((e) => e.window?.previous.toISOString() ?? null)}::timestamptz[],
      ${entries.map((e) => e.window?.overlap ?? null)}::float8[],
      ${rules.limitName}, ${rules.limitMax}::int, make_interval(secs => ${rules.playIdleGapMs / 1000}),
      ${rules.countries}::text[], ${rules.regions}::text[], ${rules.verifyCountries}::text[])`;
  const ordered: EntryRow[] = [];
  for (const { ord, ...row } of rows) ordered[ord - 1] = row;
  return ordered;
}

/** Everything a draw's public record shows (docs/fairness.md), its tickets in position order. */
export function fairDrawRow(raffleId: string) {
  return db().raffle.findUnique({
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
      closedAt: true,
      scheduledEndsAt: true,
      scheduledBeaconRound: true,
      beaconRound: true,
      beaconSignature: true,
      cancelReason: true,
      chain: { select: { hash: true, publicKey: true, scheme: true, periodSeconds: true, genesisTime: true, beaconId: true } },
      winner: { select: { username: true, firstName: true, isDemo: true } },
      entries: { orderBy: { position: "asc" }, select: { id: true, position: true, userId: true } },
    },
  });
}

export async function raffleExists(raffleId: string): Promise<boolean> {
  return (await db().raffle.count({ where: { id: raffleId } })) > 0;
}

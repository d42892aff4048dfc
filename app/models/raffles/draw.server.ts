import type { Entry, LedgerAccount, Raffle, User } from "~/generated/prisma/client";
import type { Tx } from "../db.server";

/**
 * The SQL of drawing many raffles in one transaction: a few statements per batch
 * rather than a dozen per raffle (docs/decisions/009-entries-and-draws-in-bulk.md).
 * The ledger's triggers still keep balances and check that each transaction balances.
 */
export type RaffleToDraw = Pick<Raffle, "id" | "kind" | "entryPrice" | "seed"> & Partial<Pick<Raffle, "endsAt" | "ticketCount">>;

/**
 * Locks up to `limit` active raffles whose end has passed, oldest first, skipping ones
 * being drawn elsewhere: those committed without a beacon, or (`round`) those that wait
 * for that beacon round.
 */
export function claimDueRaffles(tx: Tx, now: Date, limit: number, round?: { chain: string; round: number }): Promise<RaffleToDraw[]> {
  return round
    ? tx.$queryRaw<RaffleToDraw[]>`
        SELECT id::text AS id, kind, entry_price AS "entryPrice", seed, ends_at AS "endsAt", ticket_count AS "ticketCount" FROM raffles
        WHERE status = 'active' AND ends_at <= ${now} AND beacon_chain = ${round.chain} AND beacon_round = ${round.round}
        ORDER BY ends_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED`
    : tx.$queryRaw<RaffleToDraw[]>`
        SELECT id::text AS id, kind, entry_price AS "entryPrice", seed, ends_at AS "endsAt", ticket_count AS "ticketCount" FROM raffles
        WHERE status = 'active' AND ends_at <= ${now} AND beacon_round IS NULL
        ORDER BY ends_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
}

export type DrawTicket = Pick<Entry, "id" | "position" | "userId" | "cash" | "bonus">;

/**
 * Every ticket of the raffles in position order, by raffle. One row per raffle, its
 * columns comma-joined text: splitting a string is far cheaper than parsing a
 * PostgreSQL array literal, and a draw of 1,000 raffles reads 20,000 tickets.
 */
export async function ticketsOfRaffles(tx: Tx, raffleIds: string[]): Promise<Map<string, DrawTicket[]>> {
  const rows = await tx.$queryRaw<(Pick<Entry, "raffleId"> & { ids: string; positions: string; users: string; cash: string; bonus: string })[]>`
    SELECT raffle_id::text AS "raffleId", string_agg(id::text, ',' ORDER BY position) AS ids,
           string_agg(position::text, ',' ORDER BY position) AS positions, string_agg(user_id::text, ',' ORDER BY position) AS users,
           string_agg(cash::text, ',' ORDER BY position) AS cash, string_agg(bonus::text, ',' ORDER BY position) AS bonus
    FROM entries WHERE raffle_id = ANY(${raffleIds}::uuid[]) GROUP BY raffle_id`;
  const tickets = new Map<string, DrawTicket[]>(raffleIds.map((id) => [id, []]));
  for (const row of rows) {
    const positions = row.positions.split(",");
    const users = row.users.split(",");
    const cash = row.cash.split(",");
    const bonus = row.bonus.split(",");
    tickets.set(
      row.raffleId,
      row.ids.split(",").map((id, i) => ({ id, position: Number(positions[i]), userId: users[i]!, cash: BigInt(cash[i]!), bonus: BigInt(bonus[i]!) })),
    );
  }
  return tickets;
}

export type DrawPlayer = Pick<User, "id" | "vipTier" | "vipExpiry" | "username" | "firstName" | "isDemo"> & {
  /** Their cash ("user") and bonus ledger accounts. */
  account: LedgerAccount["id"];
  bonusAccount: LedgerAccount["id"];
};

/**
 * The players (their VIP state, names, and cash and bonus ledger accounts, created on first
 * use). Only missing accounts are inserted: ON CONFLICT's check of an existing account waits
 * for any transaction that is changing its balance (another batch's postings, an entry), and
 * would hold this batch behind it from its start.
 */
export async function playersForDraw(tx: Tx, userIds: string[]): Promise<DrawPlayer[]> {
  await tx.$executeRaw`
    INSERT INTO ledger_accounts (kind, user_id)
    SELECT k.kind, u.id FROM users u, (VALUES ('user'::"LedgerAccountKind"), ('user_bonus'::"LedgerAccountKind")) AS k(kind)
    WHERE u.id = ANY(${userIds}::uuid[])
      AND NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.user_id = u.id AND a.kind = k.kind)
    ON CONFLICT (user_id, kind) DO NOTHING`;
  return tx.$queryRaw<DrawPlayer[]>`
    SELECT u.id::text AS id, u.vip_tier AS "vipTier", u.vip_expiry AS "vipExpiry", u.username,
           u.first_name AS "firstName", u.is_demo AS "isDemo", a.id::text AS account, b.id::text AS "bonusAccount"
    FROM users u
    JOIN ledger_accounts a ON a.user_id = u.id AND a.kind = 'user'
    JOIN ledger_accounts b ON b.user_id = u.id AND b.kind = 'user_bonus'
    WHERE u.id = ANY(${userIds}::uuid[])`;
}

export type Pot = Pick<LedgerAccount, "id" | "balance">;

/**
 * Locks the batch's pots (no one else touches them: their raffles are locked) and
 * returns their cash and bonus pots by raffle.
 */
export async function lockPots(tx: Tx, raffleIds: string[]): Promise<Map<string, { cash: Pot; bonus: Pot }>> {
  const rows = await tx.$queryRaw<(Pick<LedgerAccount, "id" | "kind" | "balance"> & { raffleId: NonNullable<LedgerAccount["raffleId"]> })[]>`
    SELECT id::text AS id, raffle_id::text AS "raffleId", kind::text AS kind, balance FROM ledger_accounts
    WHERE raffle_id = ANY(${raffleIds}::uuid[]) ORDER BY id FOR UPDATE`;
  const byKind = new Map(rows.map((r) => [`${r.raffleId}:${r.kind}`, { id: r.id, balance: r.balance }]));
  const pot = (raffleId: string, kind: string) => {
    const found = byKind.get(`${raffleId}:${kind}`);
    if (!found) throw new Error(`raffle ${raffleId} has no ${kind} account`);
    return found;
  };
  return new Map(raffleIds.map((id) => [id, { cash: pot(id, "raffle_pot"), bonus: pot(id, "raffle_pot_bonus") }]));
}

/**
 * Locks what the payouts touch that other transactions share: first the winners' user
 * rows (their totals grow), then the accounts paid from the pots (players, the house),
 * each in sorted order. Users before accounts is the order the rewards take (they lock
 * the player, then the accounts). Other draws and entries want these accounts too, so
 * the draw locks them last, just before the postings, and holds them only until commit.
 */
export async function lockPayoutRows(tx: Tx, winnerIds: string[], accountIds: string[]): Promise<void> {
  if (winnerIds.length > 0) {
    await tx.$queryRaw`SELECT id FROM users WHERE id = ANY(${winnerIds}::uuid[]) ORDER BY id FOR NO KEY UPDATE`;
  }
  await tx.$queryRaw`SELECT id FROM ledger_accounts WHERE id = ANY(${accountIds}::uuid[]) ORDER BY id FOR UPDATE`;
}

export type BulkTransaction = {
  kind: "prize" | "refund";
  reference: string;
  userId: string;
  raffleId: string;
  postings: { accountId: string; amount: bigint }[];
};

/** Records balanced ledger transactions and their postings in one statement. */
export async function postTransactions(tx: Tx, transactions: BulkTransaction[]): Promise<void> {
  if (transactions.length === 0) return;
  const postings = transactions.flatMap((t) => t.postings.map((p) => ({ reference: t.reference, ...p })));
  if (transactions.some((t) => t.postings.reduce((sum, p) => sum + p.amount, 0n) !== 0n || t.postings.some((p) => p.amount === 0n))) {
    throw new Error("unbalanced ledger transaction in a draw");
  }
  await tx.$executeRaw`
    WITH t AS (
      INSERT INTO ledger_transactions (kind, reference, user_id, raffle_id)
      SELECT x.kind::"LedgerTransactionKind", x.reference, x.user_id, x.raffle_id
      FROM unnest(${transactions.map((t) => t.kind)}::text[], ${transactions.map((t) => t.reference)}::text[],
                  ${transactions.map((t) => t.userId)}::uuid[], ${transactions.map((t) => t.raffleId)}::uuid[])
           AS x(kind, reference, user_id, raffle_id)
      RETURNING id, reference
    )
    INSERT INTO ledger_postings (transaction_id, account_id, amount)
    SELECT t.id, p.account_id, p.amount
    FROM unnest(${postings.map((p) => p.reference)}::text[], ${postings.map((p) => p.accountId)}::uuid[],
                ${postings.map((p) => p.amount)}::bigint[]) AS p(reference, account_id, amount)
    JOIN t ON t.reference = p.reference`;
}

export type Completed = {
  id: string;
  merkleRoot: string;
  winningTicket: number;
  winnerId: string;
  finalPot: bigint;
  prize: bigint;
  rake: bigint;
  prizeExtra: bigint;
};

/** Marks the raffles drawn; `beaconSignature` is the signature of the beacon round they waited for, if any. */
export async function markCompleted(tx: Tx, raffles: Completed[], drawnAt: Date, beaconSignature: string | null = null): Promise<void> {
  if (raffles.length === 0) return;
  await tx.$executeRaw`
    UPDATE raffles r SET status = 'completed', merkle_root = x.merkle_root, winning_ticket = x.winning_ticket,
      winner_id = x.winner_id, final_pot = x.final_pot, prize = x.prize, rake = x.rake, prize_extra = x.prize_extra, drawn_at = ${drawnAt},
      beacon_signature = ${beaconSignature}
    FROM unnest(${raffles.map((r) => r.id)}::uuid[], ${raffles.map((r) => r.merkleRoot)}::text[],
                ${raffles.map((r) => r.winningTicket)}::int[], ${raffles.map((r) => r.winnerId)}::uuid[],
                ${raffles.map((r) => r.finalPot)}::bigint[], ${raffles.map((r) => r.prize)}::bigint[],
                ${raffles.map((r) => r.rake)}::bigint[], ${raffles.map((r) => r.prizeExtra)}::bigint[])
         AS x(id, merkle_root, winning_ticket, winner_id, final_pot, prize, rake, prize_extra)
    WHERE r.id = x.id`;
}

/** Adds the prizes to the winners' totals (their rows locked by lockPayoutRows). */
export async function addWinnings(tx: Tx, raffles: Completed[]): Promise<void> {
  if (raffles.length === 0) return;
  await tx.$executeRaw`
    UPDATE users u SET total_winnings = u.total_winnings + x.prize
    FROM (SELECT id, sum(prize)::bigint AS prize
          FROM unnest(${raffles.map((r) => r.winnerId)}::uuid[], ${raffles.map((r) => r.prize)}::bigint[]) AS w(id, prize)
          GROUP BY id) x
    WHERE u.id = x.id`;
}

export async function markCancelled(tx: Tx, raffles: { id: string; finalPot: bigint; reason: string }[], drawnAt: Date): Promise<void> {
  if (raffles.length === 0) return;
  await tx.$executeRaw`
    UPDATE raffles r SET status = 'cancelled', final_pot = x.final_pot, drawn_at = ${drawnAt}, cancel_reason = x.reason
    FROM unnest(${raffles.map((r) => r.id)}::uuid[], ${raffles.map((r) => r.finalPot)}::bigint[], ${raffles.map((r) => r.reason)}::text[])
         AS x(id, final_pot, reason)
    WHERE r.id = x.id`;
}

/** Audit events and live events (told at commit: prisma/sql/functions/announce.sql) for the batch. */
export async function recordDraws(
  tx: Tx,
  audits: { actor: string; action: string; target: string; details: unknown }[],
  events: { channel: string; payload: string }[],
): Promise<void> {
  if (audits.length > 0) {
    await tx.$executeRaw`
      INSERT INTO audit_events (actor, action, target, details)
      SELECT * FROM unnest(${audits.map((a) => a.actor)}::text[], ${audits.map((a) => a.action)}::text[],
                           ${audits.map((a) => a.target)}::text[], ${audits.map((a) => JSON.stringify(a.details))}::jsonb[])`;
  }
  if (events.length > 0) {
    await tx.$executeRaw`
      INSERT INTO announcements (channel, payload)
      SELECT * FROM unnest(${events.map((e) => e.channel)}::text[], ${events.map((e) => e.payload)}::text[])`;
  }
}

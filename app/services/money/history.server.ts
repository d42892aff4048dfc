import type { LedgerTransactionKind } from "~/generated/prisma/client";
import * as history from "~/models/money/movement.server";
import { EARLIEST_YEAR, LATEST_YEAR, parseIsoDay } from "~/shared/dates";
import { coinsToDecimal } from "~/shared/money";
import { readPageCursor, writePageCursor } from "~/shared/page-cursor";

/**
 * The player's records: every movement of their coins (purchases, entries, prizes,
 * refunds, bonuses, spins, withdrawals) and their VIP charges, filterable, with what they
 * paid and were paid in dollars, and as CSV. Coins are not dollars (only a cash coin is a
 * cent): purchases show the dollars charged beside the coins credited.
 */
export const HISTORY_TYPES = {
  deposits: ["deposit", "reversal"],
  entries: ["entry"],
  prizes: ["prize"],
  refunds: ["refund"],
  bonuses: ["bonus"],
  spins: ["spin_reward"],
  withdrawals: ["withdrawal_hold", "withdrawal_release"],
} as const satisfies Record<string, LedgerTransactionKind[]>;
export type HistoryType = keyof typeof HISTORY_TYPES;
/** VIP charges are purchases too: they show unfiltered and under `deposits`. */
const showsVip = (type: HistoryType | undefined) => type === undefined || type === "deposits";

const LABELS: Record<LedgerTransactionKind, string> = {
  deposit: "Coins bought",
  reversal: "Purchase taken back",
  entry: "Raffle entry",
  prize: "Prize",
  rake: "House share",
  refund: "Entries refunded",
  bonus: "Bonus",
  spin_reward: "Daily spin",
  withdrawal_hold: "Withdrawal requested",
  withdrawal_release: "Withdrawal returned",
  payout: "Withdrawal paid",
  reclassification: "Coins not paid in or won became bonus coins",
  forfeit: "Bonus coins forfeited (account closed)",
};

/**
 * `before`: where the page before ended (its last row's time and id, "<ISO time>_<id>"), so
 * the next page starts after it: a page's cost follows its rows, not the player's history.
 */
export type HistoryFilter = { type?: string; from?: string; to?: string; before?: string };
/** Records are kept and shown for at least this long. */
export const HISTORY_DAYS = 92;

/** The filter a page's query asks for; the route reads the query (`queryParams`). */
export function readHistoryFilter(params: URLSearchParams): HistoryFilter {
  return {
    type: params.get("type") ?? undefined,
    from: params.get("from") ?? undefined,
    to: params.get("to") ?? undefined,
    before: params.get("before") ?? undefined,
  };
}

/**
 * The period and type asked for. A date that is not a real day (parseIsoDay: "9999-99-99",
 * "0000-01-01", "1990-02-30") is not guessed at: the default period is shown with `problem`
 * saying why, and the routes answer 400.
 */
export function parseFilter(filter: HistoryFilter, now = new Date()) {
  const asked = { from: filter.from?.trim() ? parseIsoDay(filter.from.trim()) : undefined, to: filter.to?.trim() ? parseIsoDay(filter.to.trim()) : undefined };
  const wrong = (["from", "to"] as const).filter((name) => asked[name] === null);
  const problem = wrong.length
    ? `${wrong.map((name) => (name === "from" ? "From" : "To")).join(" and ")} must be a real date between ${EARLIEST_YEAR} and ${LATEST_YEAR}, like 2026-01-31`
    : null;
  const from = asked.from ?? new Date(now.getTime() - HISTORY_DAYS * 86_400_000);
  const to = asked.to ? new Date(asked.to.getTime() + 86_400_000) : new Date(now.getTime() + 1000);
  const type = filter.type && Object.hasOwn(HISTORY_TYPES, filter.type) ? (filter.type as HistoryType) : undefined;
  const before = readPageCursor(filter.before);
  const forged = filter.before?.trim() && !before ? "That page of older movements does not exist: the newest are shown" : null;
  return { from, to, type, before, problem: [problem, forged].filter(Boolean).join(". ") || null };
}

export type HistoryRow = {
  id: string;
  date: string;
  type: string;
  kind: LedgerTransactionKind | "vip";
  /** Coins credited (+) or taken (−), in all and as cash and bonus; none for a VIP charge. */
  coins: number;
  cash: number;
  bonus: number;
  /** A purchase (coins or VIP): the dollars charged to the card. */
  charged: string | null;
  /** A purchase: the dollars refunded or disputed of it since, if any. */
  refunded: string | null;
  /** A refund or dispute: the dollars the purchase it took back from had charged. */
  ofPurchase: string | null;
  /** A withdrawal: where it stands and where each part of it goes ("processing: $24.99 back to your card (completed) · …"). */
  withdrawal: string | null;
  /** A withdrawal's id (a complaint about it names it). */
  withdrawalId: string | null;
  raffleId: string | null;
  /** An entry: its receipt's id (ADR 079), while its ticket is held. */
  receiptId: string | null;
};

/** A page's rows; older ones are a link away. */
export const HISTORY_PAGE_ROWS = 100;
/** The CSV's rows: a download holds the whole period (up to this many). */
export const HISTORY_CSV_ROWS = 5000;
const dollars = (cents: number | bigint) => coinsToDecimal(BigInt(cents));
/** A reversal's line by its memo: a refund's (the default), a dispute's, or a won dispute's (ADR 108). */
const REVERSALS: Record<string, string> = {
  dispute: "Purchase disputed: coins taken back",
  dispute_won: "Purchase dispute closed: coins given back",
};
const reversalLine = (memo: string | null) => REVERSALS[memo ?? ""] ?? "Purchase refunded: coins taken back";
const takenBack = (p: { refundedCents: number; disputedCents: number }) => p.refundedCents + p.disputedCents;

export async function playerHistory(userId: string, filter: HistoryFilter, { now = new Date(), rows: limit = HISTORY_PAGE_ROWS } = {}) {
  const { from, to, type, before, problem } = parseFilter(filter, now);
  // One more than shown: whether there is an older page.
  const [movements, vip, money] = await Promise.all([
    history.playerMovements(userId, { kinds: type ? [...HISTORY_TYPES[type]] : undefined, from, to, before, limit: limit + 1 }),
    showsVip(type) ? history.vipCharges(userId, { from, to, before, limit: limit + 1 }) : [],
    history.moneyInAndOut(userId),
  ]);
  const rows: HistoryRow[] = [
    ...movements.map((r) => ({
      id: r.id,
      date: r.createdAt.toISOString(),
      type: r.kind === "reversal" ? reversalLine(r.memo) : LABELS[r.kind],
      kind: r.kind,
      coins: Number(r.amount),
      cash: Number(r.cash),
      bonus: Number(r.bonus),
      charged: r.kind === "deposit" && r.payment ? dollars(r.payment.amountCents) : null,
      refunded: r.kind === "deposit" && r.payment && takenBack(r.payment) > 0 ? dollars(takenBack(r.payment)) : null,
      ofPurchase: r.kind === "reversal" && r.payment ? dollars(r.payment.amountCents) : null,
      withdrawal: r.withdrawal ? withdrawalState(r.withdrawal) : null,
      withdrawalId: r.withdrawal?.id ?? null,
      raffleId: r.raffleId,
      receiptId: r.receiptId,
    })),
    ...vip.map((p) => ({
      id: p.id,
      date: p.settledAt!.toISOString(),
      type: `VIP ${p.product.toUpperCase()} membership (30 days)`,
      kind: "vip" as const,
      coins: 0,
      cash: 0,
      bonus: 0,
      charged: dollars(p.amountCents),
      refunded: takenBack(p) > 0 ? dollars(takenBack(p)) : null,
      ofPurchase: null,
      withdrawal: null,
      withdrawalId: null,
      raffleId: null,
      receiptId: null,
    })),
  ];
  // Newest first, as each source is; ties by id, as the ledger orders its rows.
  rows.sort((a, b) => (a.date === b.date ? (a.id < b.id ? 1 : -1) : a.date < b.date ? 1 : -1));
  const bought = money.charged - money.refunded - money.disputed;
  return {
    /** Why the period asked for was not used (a date that is not a real day), or null. */
    problem,
    filter: { type: type ?? "", from: from.toISOString().slice(0, 10), to: new Date(to.getTime() - 1).toISOString().slice(0, 10) },
    rows: rows.slice(0, limit),
    /** On an older page: the time its rows come before. */
    olderThan: before ? before.at.toISOString() : null,
    /** Where the next (older) page starts, when there are older rows in the period. */
    older: rows.length > limit ? writePageCursor(rows[limit - 1]!.date, rows[limit - 1]!.id) : null,
    /** Over the player's whole history, in dollars: charged, less refunds and disputes; paid out; the difference. */
    totals: {
      charged: dollars(money.charged),
      refunded: dollars(money.refunded),
      disputed: dollars(money.disputed),
      bought: dollars(bought),
      // Every cent that left: refunds to cards and transfers (PRODUCT.md). Refunds are in
      // `bought` already, so the net takes off only the transfers.
      withdrawn: dollars(money.paidOut),
      netDeposits: dollars(bought - money.transferred),
    },
  };
}

/** The player's words for a withdrawal's state (approved shows as processing, rejected as failed). */
const SHOWN_STATE: Record<string, string> = { approved: "processing", rejected: "failed" };

function withdrawalState(w: NonNullable<Awaited<ReturnType<typeof history.playerMovements>>[number]["withdrawal"]>): string {
  const legs = (w.legs ?? []).map(
    (leg) => `$${dollars(leg.amount)} ${leg.kind === "card_refund" ? "back to your card" : `to ${w.destination}`} (${leg.status})`,
  );
  const state = SHOWN_STATE[w.status] ?? w.status;
  return `${state}${w.failureReason ? ` (${w.failureReason})` : ""}: ${legs.join(" · ")}`;
}

export function historyCsv(rows: HistoryRow[]): string {
  const escape = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  const lines = [["date", "type", "charged_usd", "refunded_or_disputed_usd", "coins", "cash_coins", "bonus_coins", "withdrawal", "raffle"].join(",")];
  for (const r of rows) {
    lines.push(
      [r.date, r.type, r.charged ?? "", r.refunded ?? "", String(r.coins), String(r.cash), String(r.bonus), r.withdrawal ?? "", r.raffleId ?? ""]
        .map(escape)
        .join(","),
    );
  }
  return `${lines.join("\n")}\n`;
}

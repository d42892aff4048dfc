import type { LedgerTransactionKind } from "~/generated/prisma/client";
import * as history from "~/models/history.server";
import { queryParams } from "./http.server";
import { EARLIEST_YEAR, LATEST_YEAR, parseIsoDay } from "./dates";
import { coinsToDecimal } from "./money";

/**
 * The player's records: every movement of their coins (deposits, entries, prizes,
 * refunds, bonuses, spins, withdrawals), filterable, with net deposits, and as CSV.
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

const LABELS: Record<LedgerTransactionKind, string> = {
  deposit: "Coins bought",
  reversal: "Purchase reversed",
  entry: "Raffle entry",
  prize: "Prize",
  rake: "House share",
  refund: "Refund",
  bonus: "Bonus",
  spin_reward: "Daily spin",
  withdrawal_hold: "Withdrawal requested",
  withdrawal_release: "Withdrawal returned",
  payout: "Withdrawal paid",
  reclassification: "Coins not paid in or won became bonus coins",
};

export type HistoryFilter = { type?: string; from?: string; to?: string };
/** Records are kept and shown for at least this long. */
export const HISTORY_DAYS = 92;

export function filterFrom(request: Request): HistoryFilter {
  const params = queryParams(request);
  return { type: params.get("type") ?? undefined, from: params.get("from") ?? undefined, to: params.get("to") ?? undefined };
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
  return { from, to, type, problem };
}

export async function playerHistory(userId: string, filter: HistoryFilter, now = new Date()) {
  const { from, to, type, problem } = parseFilter(filter, now);
  const [rows, totals] = await Promise.all([
    history.playerMovements(userId, { kinds: type ? [...HISTORY_TYPES[type]] : undefined, from, to, limit: 5000 }),
    history.netDeposits(userId),
  ]);
  return {
    /** Why the period asked for was not used (a date that is not a real day), or null. */
    problem,
    filter: { type: type ?? "", from: from.toISOString().slice(0, 10), to: new Date(to.getTime() - 1).toISOString().slice(0, 10) },
    rows: rows.map((r) => ({
      id: r.id,
      date: r.createdAt.toISOString(),
      type: LABELS[r.kind],
      kind: r.kind,
      amount: coinsToDecimal(r.amount),
      coins: Number(r.amount),
      cash: Number(r.cash),
      bonus: Number(r.bonus),
      raffleId: r.raffleId,
    })),
    deposited: coinsToDecimal(totals.deposited),
    paidOut: coinsToDecimal(totals.paidOut),
    netDeposits: coinsToDecimal(totals.deposited - totals.paidOut),
  };
}

export function historyCsv(rows: Awaited<ReturnType<typeof playerHistory>>["rows"]): string {
  const escape = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  const lines = [["date", "type", "amount_usd", "coins", "cash_coins", "bonus_coins", "raffle"].join(",")];
  for (const r of rows) {
    lines.push([r.date, r.type, r.amount, String(r.coins), String(r.cash), String(r.bonus), r.raffleId ?? ""].map(escape).join(","));
  }
  return `${lines.join("\n")}\n`;
}

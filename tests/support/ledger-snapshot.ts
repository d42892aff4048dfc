import { db } from "~/models/db.server";

/**
 * Every account's balance and the number of ledger transactions: equal snapshots mean no
 * coin moved. Empty accounts are left out: an entry opens a player's cash and bonus
 * accounts before its checks run, which moves nothing.
 */
export async function ledgerSnapshot(): Promise<{ transactions: number; balances: Record<string, string> }> {
  const [accounts, transactions] = await Promise.all([
    db().ledgerAccount.findMany({ where: { balance: { not: 0n } }, select: { id: true, balance: true }, orderBy: { id: "asc" } }),
    db().ledgerTransaction.count(),
  ]);
  return { transactions, balances: Object.fromEntries(accounts.map((a) => [a.id, a.balance.toString()])) };
}

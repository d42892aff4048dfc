import { db } from "../db.server";

/** Counts by state for /metrics (app/infra/metrics.server.ts); each an index scan of a status column. */

export async function countPaymentsByStatus(): Promise<Map<string, number>> {
  const rows = await db().payment.groupBy({ by: ["status"], _count: { _all: true } });
  return new Map(rows.map((row) => [row.status, row._count._all]));
}

export async function countWithdrawalsByStatus(): Promise<Map<string, number>> {
  const rows = await db().withdrawal.groupBy({ by: ["status"], _count: { _all: true } });
  return new Map(rows.map((row) => [row.status, row._count._all]));
}

export async function countPayoutLegsByStatus(): Promise<{ kind: string; status: string; count: number }[]> {
  const rows = await db().payoutLeg.groupBy({ by: ["kind", "status"], _count: { _all: true } });
  return rows.map((row) => ({ kind: row.kind, status: row.status, count: row._count._all }));
}

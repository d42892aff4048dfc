import type { RaffleKind } from "~/generated/prisma/client";
import { db } from "../db.server";

export type NewRaffleSeries = {
  slug: string;
  kind: RaffleKind;
  tier: string;
  entryPrice: bigint;
  durationSeconds: number;
  concurrent?: number;
  vipOnly?: boolean;
  maxTicketsPerPlayer?: number;
};

/** Adds the series that do not exist yet; existing rows are the operator's and stay as they are. */
export async function addMissingRaffleSeries(series: NewRaffleSeries[]): Promise<number> {
  const { count } = await db().raffleSchedule.createMany({ data: series, skipDuplicates: true });
  return count;
}

export function listRaffleSeries() {
  return db().raffleSchedule.findMany({
    select: {
      id: true,
      slug: true,
      kind: true,
      tier: true,
      entryPrice: true,
      durationSeconds: true,
      concurrent: true,
      vipOnly: true,
      maxTicketsPerPlayer: true,
      enabled: true,
    },
    orderBy: [{ kind: "asc" }, { entryPrice: "asc" }, { slug: "asc" }],
  });
}

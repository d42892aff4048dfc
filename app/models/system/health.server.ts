import { pendingMigrations } from "./migrations.server";
import { db } from "../db.server";

/** Ready: the database answers and every migration on disk is applied. */
export async function checkReadiness(): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    const pending = await pendingMigrations((sql) => db().$queryRawUnsafe(sql));
    return pending.length === 0 ? { ok: true } : { ok: false, reason: `pending migrations: ${pending.join(", ")}` };
  } catch (error) {
    return { ok: false, reason: `database unreachable: ${(error as Error).message.split("\n")[0]}` };
  }
}

import type { Prisma } from "~/generated/prisma/client";
import type { Tx } from "../db.server";

export type AuditEvent = {
  actor: string;
  action: string;
  target?: string;
  details?: Prisma.InputJsonValue;
};

/** Appends to the audit log, in the caller's transaction, so it exists exactly when the change does. */
export async function recordAudit(tx: Tx, event: AuditEvent): Promise<void> {
  await tx.auditEvent.create({ data: event });
}

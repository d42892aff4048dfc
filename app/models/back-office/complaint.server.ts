import type { Complaint } from "~/generated/prisma/client";
import { db, type Tx } from "../db.server";

/** What a complaint shows, to its player and to the back office (never the request key). */
const COMPLAINT = {
  id: true,
  userId: true,
  subject: true,
  reference: true,
  message: true,
  status: true,
  answer: true,
  answeredById: true,
  answeredAt: true,
  closedAt: true,
  dueAt: true,
  createdAt: true,
} as const;
export type ComplaintRow = Pick<Complaint, keyof typeof COMPLAINT>;

/**
 * Files the complaint, once per (player, request key): a second submit of the same form
 * finds the first and inserts nothing (ON CONFLICT), whichever of two racing submits wins.
 */
export async function insertComplaint(
  tx: Tx,
  complaint: { userId: string; requestKey: string; subject: string; reference: string | null; message: string; dueAt: Date; now: Date },
): Promise<{ complaint: ComplaintRow; created: boolean }> {
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO complaints (user_id, request_key, subject, reference, message, due_at, created_at)
    VALUES (${complaint.userId}::uuid, ${complaint.requestKey}, ${complaint.subject}, ${complaint.reference}::uuid, ${complaint.message},
            ${complaint.dueAt}, ${complaint.now})
    ON CONFLICT (user_id, request_key) DO NOTHING
    RETURNING id::text AS id`;
  const row = await tx.complaint.findUniqueOrThrow({
    where: { userId_requestKey: { userId: complaint.userId, requestKey: complaint.requestKey } },
    select: COMPLAINT,
  });
  return { complaint: row, created: inserted.length > 0 };
}

/** The complaint, locked for a decision (FOR UPDATE): two admins answering at once take turns. */
export async function lockComplaint(tx: Tx, id: string): Promise<ComplaintRow | null> {
  const [row] = await tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM complaints WHERE id = ${id}::uuid FOR UPDATE`;
  return row ? tx.complaint.findUnique({ where: { id }, select: COMPLAINT }) : null;
}

export function updateComplaint(
  tx: Tx,
  id: string,
  data: Partial<Pick<Complaint, "status" | "answer" | "answeredById" | "answeredAt" | "closedById" | "closedAt">>,
) {
  return tx.complaint.update({ where: { id }, data, select: COMPLAINT });
}

/** The player's complaints, newest first (scoped by owner). */
export function complaintsOf(userId: string, limit = 200): Promise<ComplaintRow[]> {
  return db().complaint.findMany({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit, select: COMPLAINT });
}

/** The back office's queue: open ones (received, then answered) by due date, then the last closed ones. */
export async function complaintQueue(limit = 200) {
  const select = { ...COMPLAINT, user: { select: { username: true, email: true } } } as const;
  const [open, closed] = await Promise.all([
    db().complaint.findMany({ where: { status: { not: "closed" } }, orderBy: [{ dueAt: "asc" }, { id: "asc" }], take: limit, select }),
    db().complaint.findMany({ where: { status: "closed" }, orderBy: [{ closedAt: "desc" }, { id: "desc" }], take: 50, select }),
  ]);
  return [...open, ...closed];
}

/** Whether the player entered the raffle (a draw they may complain about). */
export async function playerEnteredRaffle(tx: Tx, userId: string, raffleId: string): Promise<boolean> {
  return (await tx.entry.count({ where: { userId, raffleId }, take: 1 })) > 0;
}

/** Whether the withdrawal is the player's own. */
export async function playerOwnsWithdrawal(tx: Tx, userId: string, withdrawalId: string): Promise<boolean> {
  return (await tx.withdrawal.count({ where: { userId, id: withdrawalId }, take: 1 })) > 0;
}

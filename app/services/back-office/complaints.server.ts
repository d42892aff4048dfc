import { randomUUID } from "node:crypto";
import { recordAudit } from "~/models/back-office/audit-event.server";
import * as complaints from "~/models/back-office/complaint.server";
import { db, type Tx } from "~/models/db.server";
import { getEnv } from "~/infra/env.server";
import { queueMail } from "~/infra/mail/outbox.server";
import { COMPLAINT_SUBJECTS, type ComplaintStatus, type ComplaintSubject, type FileComplaint } from "~/shared/complaints";
import { longUtcDate } from "~/shared/dates";
import { DomainError } from "~/shared/domain-error";
import { refuseOwnAccount } from "../money/payouts.server";

/**
 * Complaints (docs/decisions/081-complaints.md): a player files one, the back office answers
 * it within COMPLAINT_ANSWER_DAYS and closes it. Every step is decided under the complaint's
 * row lock and written to the audit log in the same transaction; the answer goes to the
 * player by the email outbox, once per complaint.
 */
const DAY_MS = 86_400_000;

/** A fresh token for the complaint form: the same form posted twice files one complaint. */
export const newComplaintToken = () => randomUUID();

/** The answer is due this long after filing (the configured days). */
export const answerDueAt = (filedAt: Date) => new Date(filedAt.getTime() + getEnv().COMPLAINT_ANSWER_DAYS * DAY_MS);

/** A draw names a raffle the player entered, a payout their own withdrawal; nothing else takes a reference. */
async function checkReference(tx: Tx, userId: string, subject: ComplaintSubject, reference?: string) {
  if (!reference) return null;
  const own =
    subject === "draw"
      ? await complaints.playerEnteredRaffle(tx, userId, reference)
      : subject === "payout"
        ? await complaints.playerOwnsWithdrawal(tx, userId, reference)
        : null;
  if (own === null) throw new DomainError("invalid_input", "Only a complaint about a draw or a payout names a raffle or withdrawal: leave the ID empty");
  if (!own) {
    throw new DomainError(
      "invalid_input",
      subject === "draw"
        ? "That is not a raffle you entered: check the ID in your history"
        : "That is not one of your withdrawals: check the ID in your history",
    );
  }
  return reference;
}

/**
 * Files the player's complaint; the same request id again (a double submit) returns the
 * first one and records nothing more. The answer is due COMPLAINT_ANSWER_DAYS from `now`.
 */
export async function fileComplaint(userId: string, input: FileComplaint, now = new Date()) {
  const requestKey = input.requestId ?? randomUUID();
  return db().$transaction(async (tx) => {
    const reference = await checkReference(tx, userId, input.subject, input.reference);
    const { complaint, created } = await complaints.insertComplaint(tx, {
      userId,
      requestKey,
      subject: input.subject,
      reference,
      message: input.message,
      dueAt: answerDueAt(now),
      now,
    });
    if (created) {
      await recordAudit(tx, {
        actor: userId,
        action: "complaint.file",
        target: `complaint:${complaint.id}`,
        details: { subject: complaint.subject, reference, dueAt: complaint.dueAt.toISOString() },
      });
    }
    return playerView(complaint);
  });
}

/** What the player sees of a complaint. */
function playerView(c: complaints.ComplaintRow) {
  return {
    id: c.id,
    subject: c.subject as ComplaintSubject,
    subjectLabel: COMPLAINT_SUBJECTS[c.subject as ComplaintSubject] ?? c.subject,
    reference: c.reference,
    message: c.message,
    status: c.status as ComplaintStatus,
    answer: c.answer,
    answeredAt: c.answeredAt?.toISOString() ?? null,
    closedAt: c.closedAt?.toISOString() ?? null,
    dueAt: c.dueAt.toISOString(),
    createdAt: c.createdAt.toISOString(),
  };
}
export type PlayerComplaint = ReturnType<typeof playerView>;

/** The player's complaints, newest first: state, answer and when it is due. */
export async function listPlayerComplaints(userId: string): Promise<PlayerComplaint[]> {
  return (await complaints.complaintsOf(userId)).map(playerView);
}

/**
 * The back office's queue: each complaint's age and due date; overdue ones (received, past
 * their due date at `now`) first, then the rest waiting for an answer by due date, then
 * the answered ones, then the last closed. `ownId`: the admin's own complaints are marked.
 */
export async function complaintQueue(adminId: string, now = new Date()) {
  const rows = (await complaints.complaintQueue()).map((c) => {
    const overdue = c.status === "received" && c.dueAt.getTime() <= now.getTime();
    return {
      ...playerView(c),
      userId: c.userId,
      player: c.user.username ?? c.user.email,
      ageDays: Math.floor((now.getTime() - c.createdAt.getTime()) / DAY_MS),
      overdue,
      own: c.userId === adminId,
    };
  });
  const rank = (r: (typeof rows)[number]) => (r.overdue ? 0 : r.status === "received" ? 1 : r.status === "answered" ? 2 : 3);
  // Stable: within a rank the model's order (by due date; closed by when they closed) stays.
  return { answerDays: getEnv().COMPLAINT_ANSWER_DAYS, rows: rows.sort((a, b) => rank(a) - rank(b)) };
}

/** Locks the complaint an admin acts on: it must exist and not be about the admin's own account. */
async function lockForAdmin(tx: Tx, adminId: string, id: string) {
  const c = await complaints.lockComplaint(tx, id);
  if (!c) throw new DomainError("complaint_not_found", "Complaint not found");
  refuseOwnAccount(adminId, c.userId);
  return c;
}

/**
 * Answers a complaint waiting for one: the player reads it on their complaints page and by
 * email. Two admins at once: the second finds it answered (409) and nothing of theirs is kept.
 */
export async function answerComplaint(adminId: string, id: string, answer: string, now = new Date()) {
  return db().$transaction(async (tx) => {
    const c = await lockForAdmin(tx, adminId, id);
    if (c.status !== "received") throw new DomainError("complaint_decided", `This complaint is already ${c.status}`);
    const updated = await complaints.updateComplaint(tx, id, { status: "answered", answer, answeredById: adminId, answeredAt: now });
    await queueMail(tx, {
      key: `complaint-answered:${id}`,
      kind: "complaint_answered",
      userId: c.userId,
      data: { subject: COMPLAINT_SUBJECTS[c.subject as ComplaintSubject] ?? c.subject, filed: longUtcDate(c.createdAt), answer },
    });
    await recordAudit(tx, {
      actor: adminId,
      action: "complaint.answer",
      target: `complaint:${id}`,
      details: { before: { status: "received" }, after: { status: "answered" }, dueAt: c.dueAt.toISOString(), late: now > c.dueAt },
    });
    return playerView(updated);
  });
}

/** Closes an answered complaint (one not yet answered must be answered first). */
export async function closeComplaint(adminId: string, id: string, now = new Date()) {
  return db().$transaction(async (tx) => {
    const c = await lockForAdmin(tx, adminId, id);
    if (c.status === "received") throw new DomainError("complaint_decided", "Answer this complaint before closing it");
    if (c.status !== "answered") throw new DomainError("complaint_decided", `This complaint is already ${c.status}`);
    const updated = await complaints.updateComplaint(tx, id, { status: "closed", closedById: adminId, closedAt: now });
    await recordAudit(tx, {
      actor: adminId,
      action: "complaint.close",
      target: `complaint:${id}`,
      details: { before: { status: "answered" }, after: { status: "closed" } },
    });
    return playerView(updated);
  });
}

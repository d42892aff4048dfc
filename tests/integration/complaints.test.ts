import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { deliverDueMail } from "~/infra/mail/outbox.server";
import { ConfigError, forgetEnv, parseEnv } from "~/infra/env.server";
import { db } from "~/models/db.server";
import { answerComplaint, complaintQueue, fileComplaint } from "~/services/back-office/complaints.server";
import { requestWithdrawal } from "~/services/money/withdrawals.server";
import { enterRaffle } from "~/services/raffles/raffles.server";
import { readToast } from "~/web/toast.server";
import { call, cookiesFrom, gatedAdmin, pageText, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";
import { setUpSmtp } from "../support/smtp";

/**
 * Complaints end to end (docs/decisions/081-complaints.md): filed by a player (page and API),
 * queued for the back office with its age and due date, answered once (by page and by
 * email), closed, each step audited; never by an admin about their own account.
 */
const smtp = setUpSmtp();
const DAY = 86_400_000;
const MESSAGE = "The draw of my raffle looks wrong to me: please check it.";

const complaintsOf = (userId: string) => db().complaint.findMany({ where: { userId } });
const auditOf = (id: string) =>
  db().auditEvent.findMany({ where: { target: `complaint:${id}` }, orderBy: { id: "asc" }, select: { action: true, actor: true } });
const fileForm = (cookie: string, form: Record<string, string>) =>
  call("/complaints/new", { method: "POST", cookie, form, headers: { Referer: "http://localhost/complaints/new" } });
const answer = (cookie: string, id: string, text = "We checked the draw: it was fair, and here is why.") =>
  call(`/api/admin/complaints/${id}/answer`, { method: "POST", cookie, json: { answer: text } });

async function toastOf(response: Response) {
  const cookie = cookiesFrom(response);
  return (await readToast(new Request("http://localhost/", { headers: { Cookie: cookie } }))).toast;
}

afterEach(() => {
  delete process.env.COMPLAINT_ANSWER_DAYS;
  forgetEnv();
});

describe("complaints", () => {
  it("are filed from the form once per token, answered once by page and email, closed, and every step is audited", async () => {
    const player = await createTestUser();
    const raffle = await createTestRaffle();
    const entered = await createTestUser({ coins: 10_000n });
    await enterRaffle({ userId: entered.id, raffleId: raffle.id });
    const enteredCookie = await sessionCookie(entered.id);

    // From the history row: the form comes filled in.
    expect(await pageText(await call("/history", { cookie: enteredCookie }))).toContain(`/complaints/new?subject=draw&amp;reference=${raffle.id}`);
    const form = await pageText(await call(`/complaints/new?subject=draw&reference=${raffle.id}`, { cookie: enteredCookie }));
    expect(form).toContain(`value="${raffle.id}"`);
    const token = randomUUID();
    const fields = { subject: "draw", reference: raffle.id, message: MESSAGE, requestId: token };
    const filed = await fileForm(enteredCookie, fields);
    expect(filed.status).toBe(302);
    expect(filed.headers.get("Location")).toBe("/complaints");
    expect(await toastOf(filed)).toMatchObject({ type: "success", title: "Complaint received" });
    // The same form posted again (a double click, Back and resubmit): still one complaint.
    expect((await fileForm(enteredCookie, fields)).status).toBe(302);
    const [complaint, ...more] = await complaintsOf(entered.id);
    expect(more).toEqual([]);
    expect(complaint).toMatchObject({ subject: "draw", reference: raffle.id, status: "received" });
    expect(complaint!.dueAt.getTime() - complaint!.createdAt.getTime()).toBe(14 * DAY);
    expect(await pageText(await call("/complaints", { cookie: enteredCookie }))).toContain("Received");
    expect(await complaintsOf(player.id)).toEqual([]);

    const admin = await gatedAdmin();
    const queue = (await (await call("/api/admin/complaints", { cookie: admin.cookie })).json()) as { answerDays: number; rows: { id: string }[] };
    expect(queue.answerDays).toBe(14);
    expect(queue.rows.find((r) => r.id === complaint!.id)).toMatchObject({ ageDays: 0, overdue: false, own: false, dueAt: complaint!.dueAt.toISOString() });
    expect(await pageText(await call("/admin/complaints", { cookie: admin.cookie }))).toContain(MESSAGE);

    expect((await answer(admin.cookie, complaint!.id)).status).toBe(200);
    // Answered once: a second answer is refused and changes nothing, the mail included.
    const again = await answer(admin.cookie, complaint!.id, "A second answer that must not be kept.");
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ message: "This complaint is already answered" });
    const mine = (await (await call("/api/complaints", { cookie: enteredCookie })).json()) as { status: string; answer: string }[];
    expect(mine).toEqual([expect.objectContaining({ status: "answered", answer: "We checked the draw: it was fair, and here is why." })]);
    expect(await pageText(await call("/complaints", { cookie: enteredCookie }))).toContain("We checked the draw: it was fair, and here is why.");
    while ((await deliverDueMail()) > 0);
    const mails = smtp.to(entered.email).filter((m) => m.subject === "Your complaint has an answer");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("We checked the draw: it was fair, and here is why.");

    const closed = await call(`/admin/complaints/${complaint!.id}/close`, {
      method: "POST",
      cookie: admin.cookie,
      form: {},
      headers: { Referer: "http://localhost/admin/complaints" },
    });
    expect(closed.headers.get("Location")).toBe("/admin/complaints");
    expect(await toastOf(closed)).toMatchObject({ type: "success", title: "Complaint closed" });
    expect((await complaintsOf(entered.id))[0]!.status).toBe("closed");
    // The player's data export carries it, with the answer.
    const exported = (await (await call("/account/export", { cookie: enteredCookie })).json()) as { history: { complaints: unknown[] } };
    expect(exported.history.complaints).toEqual([expect.objectContaining({ id: complaint!.id, status: "closed", answer: expect.stringContaining("fair") })]);
    expect(await auditOf(complaint!.id)).toEqual([
      { action: "complaint.file", actor: entered.id },
      { action: "complaint.answer", actor: admin.id },
      { action: "complaint.close", actor: admin.id },
    ]);
  });

  it("is due COMPLAINT_ANSWER_DAYS after filing; the queue marks overdue ones and lists them first", async () => {
    expect(parseEnv({}).COMPLAINT_ANSWER_DAYS).toBe(14);
    for (const wrong of ["0", "91", "2.5", "two weeks"]) expect(() => parseEnv({ COMPLAINT_ANSWER_DAYS: wrong }), wrong).toThrow(ConfigError);
    process.env.COMPLAINT_ANSWER_DAYS = "3";
    forgetEnv();
    const player = await createTestUser();
    const admin = await createTestUser({ isAdmin: true });
    const t0 = new Date("2026-12-01T12:00:00Z");
    const file = (at: Date, message: string) => fileComplaint(player.id, { subject: "other", message }, at);
    const answered = await file(new Date(t0.getTime() - 10 * DAY), "An old complaint, answered already.");
    await answerComplaint(admin.id, answered.id, "The answer to the old complaint.", new Date(t0.getTime() - 9 * DAY));
    const late = await file(new Date(t0.getTime() - 3 * DAY), "A complaint whose answer is due now.");
    const fresh = await file(new Date(t0.getTime() - DAY), "A complaint filed yesterday.");
    expect(new Date(late.dueAt).getTime()).toBe(t0.getTime());

    const at = async (now: Date) => (await complaintQueue(admin.id, now)).rows.filter((r) => r.userId === player.id);
    // A minute before it is due: not overdue; then overdue, and first, ahead of an older answered one.
    expect((await at(new Date(t0.getTime() - 60_000))).map((r) => [r.id, r.overdue])).toEqual([
      [late.id, false],
      [fresh.id, false],
      [answered.id, false],
    ]);
    const rows = await at(t0);
    expect(rows.map((r) => [r.id, r.overdue, r.ageDays])).toEqual([
      [late.id, true, 3],
      [fresh.id, false, 1],
      [answered.id, false, 10],
    ]);
    // The answer records that it came late.
    await answerComplaint(admin.id, late.id, "Sorry for the wait: here is the answer.", new Date(t0.getTime() + DAY));
    const audit = await db().auditEvent.findFirstOrThrow({ where: { target: `complaint:${late.id}`, action: "complaint.answer" } });
    expect(audit.details).toMatchObject({ late: true });
  });

  it("refuses an admin a complaint about their own account (403), on the page and in the API; another admin handles it", async () => {
    const admin = await gatedAdmin();
    const other = await gatedAdmin();
    const own = await fileComplaint(admin.id, { subject: "account", message: "My own account was suspended without a reason." });
    const refused = await answer(admin.cookie, own.id);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: "Another admin must decide this: it concerns your own account" });
    const page = await call(`/admin/complaints/${own.id}/answer`, {
      method: "POST",
      cookie: admin.cookie,
      form: { answer: "Answering my own complaint." },
      headers: { Referer: "http://localhost/admin/complaints" },
    });
    expect(await toastOf(page)).toMatchObject({ type: "error", description: "Another admin must decide this: it concerns your own account" });
    expect((await db().complaint.findUniqueOrThrow({ where: { id: own.id } })).status).toBe("received");
    // No answer form for it in the admin's own queue.
    const tab = await pageText(await call("/admin/complaints", { cookie: admin.cookie }));
    expect(tab).toContain("Your own account: another admin handles it.");
    expect((await answer(other.cookie, own.id)).status).toBe(200);
    expect((await call(`/api/admin/complaints/${own.id}/close`, { method: "POST", cookie: admin.cookie, json: {} })).status).toBe(403);
  });

  it("records exactly one answer when admins answer at once, and one complaint when a form is posted many times at once", async () => {
    const player = await createTestUser();
    const cookie = await sessionCookie(player.id);
    const token = randomUUID();
    const posts = await Promise.all(
      Array.from({ length: 8 }, () => fileForm(cookie, { subject: "account", message: "My account was closed and I was not told why.", requestId: token })),
    );
    expect(posts.map((r) => r.status)).toEqual(Array(8).fill(302));
    const [complaint, ...more] = await complaintsOf(player.id);
    expect(more).toEqual([]);
    expect((await auditOf(complaint!.id)).filter((a) => a.action === "complaint.file")).toHaveLength(1);

    const admins = await Promise.all(Array.from({ length: 6 }, () => gatedAdmin()));
    const answers = await Promise.all(admins.map((a, i) => answer(a.cookie, complaint!.id, `Answer number ${i} from an admin.`)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
    const winner = answers.findIndex((r) => r.status === 200);
    const stored = await db().complaint.findUniqueOrThrow({ where: { id: complaint!.id } });
    expect(stored).toMatchObject({ status: "answered", answer: `Answer number ${winner} from an admin.`, answeredById: admins[winner]!.id });
    expect(await db().emailOutbox.count({ where: { userId: player.id, kind: "complaint_answered" } })).toBe(1);
    expect((await auditOf(complaint!.id)).filter((a) => a.action === "complaint.answer")).toHaveLength(1);
  });

  it("refuses bad input with a clear 4xx that changes nothing", async () => {
    const player = await createTestUser({ cash: 50_000n });
    const stranger = await createTestUser({ cash: 50_000n, coins: 10_000n });
    const cookie = await sessionCookie(player.id);
    const theirs = await requestWithdrawal(stranger.id, { amount: "20.00", method: "venmo", fields: { username: "stranger" } });
    const raffle = await createTestRaffle();
    await enterRaffle({ userId: stranger.id, raffleId: raffle.id });
    const base = { subject: "payout", message: MESSAGE, requestId: randomUUID() };
    const cases: [Record<string, string>, string][] = [
      [{ ...base, message: "" }, "Say what went wrong"],
      [{ ...base, message: "x".repeat(4001) }, "At most 4000 characters"],
      [{ ...base, subject: "lottery" }, "Choose what the complaint is about"],
      [{ ...base, reference: theirs.id }, "That is not one of your withdrawals"],
      [{ ...base, subject: "draw", reference: raffle.id }, "That is not a raffle you entered"],
      [{ ...base, subject: "account", reference: raffle.id }, "Only a complaint about a draw or a payout names a raffle or withdrawal"],
      [{ ...base, reference: "not-an-id" }, "Enter the raffle or withdrawal ID as shown in your history"],
      [{ subject: "other", message: MESSAGE }, "The form's token is missing"],
    ];
    for (const [form, message] of cases) {
      const response = await fileForm(cookie, form);
      expect(response.status, message).toBe(400);
      expect(await pageText(response), message).toContain(message.replace("'", "&#x27;"));
    }
    const api = await call("/api/complaints", { method: "POST", cookie, json: { subject: "payout", reference: theirs.id, message: MESSAGE } });
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({ message: "That is not one of your withdrawals: check the ID in your history" });
    expect(await complaintsOf(player.id)).toEqual([]);

    const admin = await gatedAdmin();
    const unknown = await answer(admin.cookie, "00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: "Complaint not found" });
    expect((await answer(admin.cookie, "nope")).status).toBe(400);
    const filed = await fileComplaint(player.id, { subject: "other", message: MESSAGE });
    const empty = await call(`/api/admin/complaints/${filed.id}/answer`, { method: "POST", cookie: admin.cookie, json: { answer: " " } });
    expect(empty.status).toBe(400);
    // Closing before answering is refused too.
    expect((await call(`/api/admin/complaints/${filed.id}/close`, { method: "POST", cookie: admin.cookie, json: {} })).status).toBe(409);
    expect(await db().complaint.findUniqueOrThrow({ where: { id: filed.id } })).toMatchObject({ status: "received", answer: null });
  });
});

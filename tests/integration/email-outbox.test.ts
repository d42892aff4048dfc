import { describe, expect, it } from "vitest";
import { claimDueMail } from "~/models/system/email-outbox.server";
import { db } from "~/models/db.server";
import { deliverDueMail, DRAWS_FIRST_WITHIN_MS, MAIL_LEASE_MS, MAIL_MAX_ATTEMPTS, mailPass, queueMail, retryDelayMs } from "~/infra/mail/outbox.server";
import { completeRaffleEarly } from "~/services/raffles/early-completion.server";
import { drawDueRaffles, enterRaffle } from "~/services/raffles/raffles.server";
import { requestWithdrawal } from "~/services/money/withdrawals.server";
import { createTestRaffle, createTestUser } from "../support/factories";
import { setUpSmtp } from "../support/smtp";

/**
 * The outbox (ADR 032): a message is written in the transaction of the action that causes
 * it and sent by a worker over real SMTP (an in-process server), with retries, leases and
 * an idempotency key per (event, kind).
 */
const smtp = setUpSmtp();

const rowsOf = (userId: string) =>
  db().emailOutbox.findMany({
    where: { userId },
    select: { id: true, kind: true, status: true, attempts: true, lastError: true, idempotencyKey: true },
    orderBy: { createdAt: "asc" },
  });

/** Sends everything due at `now` (one worker, until nothing is left). */
async function drain(now = new Date()) {
  while ((await deliverDueMail({ now })) > 0);
}

async function queued(userId: string, key: string) {
  await db().$transaction((tx) => queueMail(tx, { key, kind: "password_changed", userId, data: { support: "help@example.com" } }));
}

describe("email outbox", () => {
  it("sends a message written in the action's transaction, once, over SMTP", async () => {
    const player = await createTestUser({ cash: 5000n });
    await requestWithdrawal(player.id, { amount: "20", method: "venmo", fields: { username: "lucky-lou" } });
    // Written, not sent: sending is the worker's job.
    expect(await rowsOf(player.id)).toMatchObject([{ kind: "withdrawal_requested", status: "pending", attempts: 0 }]);
    expect(smtp.to(player.email)).toHaveLength(0);
    await drain();
    const [mail, ...more] = smtp.to(player.email);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe("Withdrawal requested");
    expect(mail!.text).toContain("We received your withdrawal of $20.00 to Venmo ••••ou.");
    expect(mail!.html).toContain("<p>We received your withdrawal of $20.00");
    const [row] = await rowsOf(player.id);
    expect(row).toMatchObject({ status: "sent", attempts: 1 });
    expect(mail!.messageId).toBe(`<${row!.id}@raffle-rush.invalid>`);
    // The same event again writes nothing: one message per (event, kind).
    await db().$transaction((tx) => queueMail(tx, { key: row!.idempotencyKey, kind: "withdrawal_requested", userId: player.id, data: {} }));
    expect((await rowsOf(player.id)).filter((r) => r.kind === "withdrawal_requested")).toHaveLength(1);
  });

  it("writes nothing when the action's transaction rolls back", async () => {
    const player = await createTestUser({ cash: 5000n });
    // A fault after the message is written: the audit row of the request cannot be stored.
    await db().$executeRawUnsafe(`
      CREATE FUNCTION fail_withdrawal_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.action = 'withdrawal.request' THEN RAISE EXCEPTION 'injected fault'; END IF; RETURN NEW; END $$`);
    await db().$executeRawUnsafe(`CREATE TRIGGER fail_withdrawal_audit BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION fail_withdrawal_audit()`);
    try {
      await expect(requestWithdrawal(player.id, { amount: "20", method: "venmo", fields: { username: "lucky-lou" } })).rejects.toThrow("injected fault");
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER fail_withdrawal_audit ON audit_events`);
      await db().$executeRawUnsafe(`DROP FUNCTION fail_withdrawal_audit()`);
    }
    expect(await rowsOf(player.id)).toEqual([]);
  });

  it("a sender that dies between claiming and sending: the message goes once its lease ends, with the same Message-ID", async () => {
    const player = await createTestUser();
    await queued(player.id, `crash:${player.id}`);
    const now = new Date();
    // A sender claims the row and dies before sending (nothing marks it).
    const [claimed] = (await claimDueMail(now, 100, MAIL_LEASE_MS)).filter((m) => m.toAddress === player.email);
    expect(claimed).toBeDefined();
    // While its lease runs, no other sender takes it.
    await drain(new Date(now.getTime() + MAIL_LEASE_MS - 1));
    expect(smtp.to(player.email)).toHaveLength(0);
    // After it, another does.
    await drain(new Date(now.getTime() + MAIL_LEASE_MS));
    expect(smtp.to(player.email)).toHaveLength(1);
    expect(await rowsOf(player.id)).toMatchObject([{ status: "sent", attempts: 2 }]);
    // The dead sender's late "sent" (an older attempt) changes nothing, and nothing is due any more.
    await drain(new Date(now.getTime() + 10 * MAIL_LEASE_MS));
    expect(smtp.to(player.email)).toHaveLength(1);
    expect(smtp.to(player.email)[0]!.messageId).toBe(`<${claimed!.id}@raffle-rush.invalid>`);
  });

  it("retries a refused message with exponential backoff, then gives up after the last attempt", async () => {
    const player = await createTestUser();
    await queued(player.id, `retry:${player.id}`);
    const start = new Date();
    smtp.refuseNext(2);
    expect(await deliverDueMail({ now: start })).toBe(0);
    expect(await rowsOf(player.id)).toMatchObject([{ status: "pending", attempts: 1, lastError: expect.stringContaining("451") }]);
    // Not due again before its backoff.
    expect(await deliverDueMail({ now: new Date(start.getTime() + retryDelayMs(1) - 1) })).toBe(0);
    expect(await rowsOf(player.id)).toMatchObject([{ attempts: 1 }]);
    const second = new Date(start.getTime() + retryDelayMs(1));
    expect(await deliverDueMail({ now: second })).toBe(0);
    expect(retryDelayMs(2)).toBe(2 * retryDelayMs(1));
    expect(await deliverDueMail({ now: new Date(second.getTime() + retryDelayMs(2)) })).toBe(1);
    expect(smtp.to(player.email)).toHaveLength(1);
    expect(await rowsOf(player.id)).toMatchObject([{ status: "sent", attempts: 3, lastError: null }]);

    const unlucky = await createTestUser();
    await queued(unlucky.id, `give-up:${unlucky.id}`);
    smtp.refuseNext(MAIL_MAX_ATTEMPTS);
    let at = Date.now();
    for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt++) {
      expect(await deliverDueMail({ now: new Date(at) })).toBe(0);
      at += retryDelayMs(attempt);
    }
    expect(await rowsOf(unlucky.id)).toMatchObject([{ status: "failed", attempts: MAIL_MAX_ATTEMPTS }]);
    await drain(new Date(at + 86_400_000));
    expect(smtp.to(unlucky.email)).toHaveLength(0);
  });

  it("sends each message once when several workers run at once", async () => {
    smtp.refuseNext(0);
    const players = await Promise.all(Array.from({ length: 30 }, () => createTestUser()));
    for (const p of players) await queued(p.id, `concurrent:${p.id}`);
    const now = new Date();
    const worker = async () => {
      let sent = 0;
      for (let n; (n = await deliverDueMail({ now, limit: 3 })) > 0;) sent += n;
      return sent;
    };
    const sent = await Promise.all([worker(), worker(), worker(), worker()]);
    expect(sent.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(30);
    for (const p of players) expect(smtp.to(p.email), p.email).toHaveLength(1);
    const ids = smtp.messages.map((m) => m.messageId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("tells a winner in the draw's transaction, unless they turned email notifications off", async () => {
    const endsAt = new Date(Date.now() + 60_000);
    const [told, quiet] = [await createTestRaffle({ endsAt }), await createTestRaffle({ endsAt })];
    const players = await Promise.all(Array.from({ length: 4 }, () => createTestUser({ coins: 1000n })));
    await db().user.updateMany({ where: { id: { in: [players[2]!.id, players[3]!.id] } }, data: { emailNotifications: false } });
    for (const [raffle, entrants] of [
      [told, players.slice(0, 2)],
      [quiet, players.slice(2)],
    ] as const) {
      for (const p of entrants) await enterRaffle({ userId: p.id, raffleId: raffle.id });
    }
    await drawDueRaffles(new Date(endsAt.getTime() + 1000));
    const winsOf = (raffleId: string) => db().emailOutbox.findMany({ where: { kind: "win", idempotencyKey: `win:${raffleId}` }, select: { userId: true } });
    const winner = await db().raffle.findUniqueOrThrow({ where: { id: told.id }, select: { winnerId: true, prize: true } });
    expect(await winsOf(told.id)).toEqual([{ userId: winner.winnerId }]);
    expect(await winsOf(quiet.id)).toEqual([]);
    await drain();
    const email = players.find((p) => p.id === winner.winnerId)!.email;
    const [mail] = smtp.to(email);
    expect(mail!.subject).toBe(`You won ${winner.prize} coins!`);
    expect(mail!.text).toContain(`http://localhost:3000/fair/${told.id}`);
  });

  it("leaves the machine to the draws: no mail goes while a raffle that just ended waits to be drawn (ADR 047)", async () => {
    const player = await createTestUser();
    await queued(player.id, `draws-first:${player.id}`);
    // A moment of its own, a year ahead, so that only this test's raffles have just ended.
    const now = new Date(Date.now() + 365 * 86_400_000);
    const ended = await createTestRaffle({ startsAt: new Date(now.getTime() - 60_000), endsAt: new Date(now.getTime() - 1_000) });
    expect(await mailPass({ now })).toBe("draws first");
    expect(smtp.to(player.email)).toHaveLength(0);
    expect(await rowsOf(player.id)).toMatchObject([{ status: "pending", attempts: 0 }]);
    // Drawn (cancelled: nobody entered), the mail goes on the next pass.
    expect(await completeRaffleEarly(ended.id, "system", now)).toMatchObject({ outcome: "cancelled" });
    expect(await mailPass({ now })).toBeGreaterThanOrEqual(1);
    expect(smtp.to(player.email)).toHaveLength(1);

    // A raffle still active long after its end (a stopped scheduler) does not hold the mail back.
    const later = await createTestUser();
    await queued(later.id, `draws-first:${later.id}`);
    await createTestRaffle({ startsAt: new Date(now.getTime() - 120_000), endsAt: new Date(now.getTime() - DRAWS_FIRST_WITHIN_MS) });
    expect(await mailPass({ now })).toBeGreaterThanOrEqual(1);
    expect(smtp.to(later.email)).toHaveLength(1);
  });
});

import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { renderMail, type MailData } from "~/infra/mail/templates";
import { priceVip } from "~/services/money/payments/pricing.server";
import { enterRaffle } from "~/services/raffles/raffles.server";
import { disputeEvent, paidPlayer, refundEvent } from "../support/disputes";
import { createTestRaffle } from "../support/factories";
import { setUpStripeMode } from "../support/stripe-mode";

/**
 * The player hears of coins a refund or a dispute takes back, and of what a dispute won gives
 * back: by mail (money-moving news: whatever the notification setting says), once per refund
 * total or dispute, in the transaction that moved them.
 */
const mode = setUpStripeMode();

async function deliver(payload: string) {
  expect((await mode.deliver(payload)).status).toBe(200);
}

/** The player's mails of these kinds, oldest first, with their text as sent. */
async function mailsOf(userId: string) {
  const rows = await db().emailOutbox.findMany({
    where: { userId, kind: { in: ["coins_taken_back", "coins_given_back"] } },
    orderBy: { createdAt: "asc" },
    select: { kind: true, idempotencyKey: true, data: true },
  });
  return rows.map((row) => {
    const mail = renderMail(row.kind as "coins_taken_back", row.data as MailData, "https://raffle.test");
    return { kind: row.kind, key: row.idempotencyKey, subject: mail.subject, text: mail.text };
  });
}

describe("mail of coins taken back and given back", () => {
  it("tells a dispute's coins taken and, once won, given back: once each, with notifications off", async () => {
    const { player, paymentId } = await paidPlayer(mode);
    await db().user.update({ where: { id: player.id }, data: { emailNotifications: false } });
    const dp = `dp_mail_${Date.now()}`;
    await deliver(disputeEvent("charge.dispute.created", dp, paymentId, 2499));
    await deliver(disputeEvent("charge.dispute.updated", dp, paymentId, 2499));
    await deliver(disputeEvent("charge.dispute.closed", dp, paymentId, 2499, "won"));
    await deliver(disputeEvent("charge.dispute.funds_reinstated", dp, paymentId, 2499));

    const mails = await mailsOf(player.id);
    expect(mails.map((m) => [m.kind, m.key, m.subject])).toEqual([
      ["coins_taken_back", `dispute-taken:${dp}`, "Your card payment is disputed"],
      ["coins_given_back", `dispute-won:${dp}`, "Your card payment stands"],
    ]);
    expect(mails[0]!.text).toContain(`you disputed $24.99 of your card payment of $24.99 (reference ${paymentId})`);
    expect(mails[0]!.text).toContain("We took back 5,000 coins: 2,499 cash and 2,501 bonus.");
    expect(mails[0]!.text).toContain("Withdrawals are on hold");
    expect(mails[1]!.text).toContain("We gave back 5,000 coins: 2,499 cash and 2,501 bonus.");
  });

  it("tells a refund made at the provider once per refunded total, with what was already played", async () => {
    const { player, paymentId } = await paidPlayer(mode);
    // $1.00 of $24.99: 100 cash and 100 bonus; the repeat changes nothing.
    await deliver(refundEvent(paymentId, 100));
    await deliver(refundEvent(paymentId, 100));
    const [first, ...rest] = await mailsOf(player.id);
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ kind: "coins_taken_back", key: `refund:${paymentId}:100`, subject: "Your card payment was refunded" });
    expect(first!.text).toContain(`$1.00 of your card payment of $24.99 (reference ${paymentId}) was refunded to your card.`);
    expect(first!.text).toContain("We took back 200 coins: 100 cash and 100 bonus.");
    expect(first!.text).not.toContain("on hold");

    // The player plays 4,700 of the 4,800 coins left (the bonus first): the rest of the refund
    // finds 100 cash and no bonus.
    await enterRaffle({ userId: player.id, raffleId: (await createTestRaffle({ entryPrice: 4700n })).id });
    await deliver(refundEvent(paymentId, 2499));
    const last = (await mailsOf(player.id)).at(-1)!;
    expect(last.key).toBe(`refund:${paymentId}:2499`);
    expect(last.text).toContain("$23.99 of your card payment of $24.99");
    expect(last.text).toContain("We took back 100 coins: 100 cash and 0 bonus.");
    expect(last.text).toContain("4,700 of the coins it bought were already played, so our support team will contact you.");
  });

  it("tells a VIP membership's days taken back by a dispute of the whole payment, and given back when it is won", async () => {
    const { player, paymentId } = await paidPlayer(mode, priceVip("bronze")!);
    const dp = `dp_vip_mail_${Date.now()}`;
    await deliver(disputeEvent("charge.dispute.created", dp, paymentId, 999));
    await deliver(disputeEvent("charge.dispute.closed", dp, paymentId, 999, "won"));
    const mails = await mailsOf(player.id);
    expect(mails.map((m) => m.kind)).toEqual(["coins_taken_back", "coins_given_back"]);
    expect(mails[0]!.text).toContain("We took back the 30 days of VIP membership it bought.");
    expect(mails[1]!.text).toContain("We gave back the 30 days of VIP membership it bought.");
  });
});

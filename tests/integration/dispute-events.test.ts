import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalances } from "~/models/money/ledger.server";
import { disputeEvent, paidPlayer } from "../support/disputes";
import { setUpStripeMode } from "../support/stripe-mode";

/**
 * Issue 31, item 4: a repeated dispute webhook took the money back twice. Every provider
 * event id and every dispute id is recorded; a repeat, or another event of the same
 * dispute, changes nothing, delivered in turn or all at once (ADR 053).
 */
const mode = setUpStripeMode();

const cash = async (userId: string) => (await userBalances(userId)).cash;
const disputed = async (providerPaymentId: string) =>
  (await db().payment.findUniqueOrThrow({ where: { providerPaymentId }, select: { disputedCents: true } })).disputedCents;

describe("dispute events", () => {
  it("takes a dispute back once: the same event twice, then the dispute's later events, change nothing", async () => {
    const { player, paymentId } = await paidPlayer(mode);
    const dp = `dp_once_${Date.now()}`;
    const created = disputeEvent("charge.dispute.created", dp, paymentId, 1000);
    expect((await mode.deliver(created)).status).toBe(200);
    expect(await cash(player.id)).toBe(1499n);
    expect((await mode.deliver(created)).status).toBe(200);
    expect((await mode.deliver(disputeEvent("charge.dispute.funds_withdrawn", dp, paymentId, 1000))).status).toBe(200);
    expect((await mode.deliver(disputeEvent("charge.dispute.updated", dp, paymentId, 1000))).status).toBe(200);
    expect(await cash(player.id)).toBe(1499n);
    expect(await disputed(paymentId)).toBe(1000);
    expect(await db().paymentDispute.count({ where: { disputeId: dp } })).toBe(1);
    expect(await db().providerEvent.count({ where: { eventId: JSON.parse(created).id } })).toBe(1);

    // Another dispute of the same payment is another matter: it is taken back.
    expect((await mode.deliver(disputeEvent("charge.dispute.created", `${dp}_2`, paymentId, 500))).status).toBe(200);
    expect(await cash(player.id)).toBe(999n);
  });

  it("takes a dispute back once when its events arrive all at once", async () => {
    const { player, paymentId } = await paidPlayer(mode);
    const dp = `dp_parallel_${Date.now()}`;
    const repeated = disputeEvent("charge.dispute.created", dp, paymentId, 1000);
    const deliveries = [
      ...Array.from({ length: 8 }, () => repeated),
      ...Array.from({ length: 4 }, () => disputeEvent("charge.dispute.funds_withdrawn", dp, paymentId, 1000)),
      ...Array.from({ length: 4 }, () => disputeEvent("charge.dispute.updated", dp, paymentId, 1000)),
    ];
    const answers = await Promise.all(deliveries.map((payload) => mode.deliver(payload)));
    expect(answers.map((r) => r.status)).toEqual(Array(deliveries.length).fill(200));
    expect(await cash(player.id)).toBe(1499n);
    expect(await disputed(paymentId)).toBe(1000);
    expect(await db().ledgerTransaction.count({ where: { userId: player.id, kind: "reversal" } })).toBe(1);
  });

  it("records every event it handles, a payment's success too", async () => {
    const { paymentId } = await paidPlayer(mode);
    const payload = JSON.stringify({
      id: `evt_paid_${Date.now()}`,
      object: "event",
      type: "payment_intent.succeeded",
      data: { object: { id: paymentId, object: "payment_intent" } },
    });
    expect((await mode.deliver(payload)).status).toBe(200);
    expect((await mode.deliver(payload)).status).toBe(200);
    expect(await db().providerEvent.findUnique({ where: { eventId: JSON.parse(payload).id }, select: { type: true } })).toEqual({ type: "payment_succeeded" });
  });
});

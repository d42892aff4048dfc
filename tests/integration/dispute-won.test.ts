import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalances } from "~/models/money/ledger.server";
import { priceVip } from "~/services/money/payments/pricing.server";
import { call, pageText, sessionCookie } from "../support/app";
import { disputeEvent, paidPlayer } from "../support/disputes";
import { setUpStripeMode } from "../support/stripe-mode";

/**
 * ADR 108: a dispute closed in our favour gives the player back exactly the coins it took,
 * and the payment counts as charged again; once per dispute, whichever of its events comes
 * first, and a dispute first heard of as won takes nothing later.
 */
const mode = setUpStripeMode();

const payment = (providerPaymentId: string) => db().payment.findUniqueOrThrow({ where: { providerPaymentId }, select: { disputedCents: true, status: true } });
async function deliverAll(payloads: string[]) {
  const answers = await Promise.all(payloads.map((payload) => mode.deliver(payload)));
  expect(answers.map((r) => r.status)).toEqual(Array(payloads.length).fill(200));
}

describe("a dispute won", () => {
  it("gives back exactly what the dispute took, once, and counts the payment as charged again", async () => {
    const { player, paymentId } = await paidPlayer(mode);
    const dp = `dp_won_${Date.now()}`;
    await deliverAll([disputeEvent("charge.dispute.created", dp, paymentId, 2499)]);
    expect(await userBalances(player.id)).toMatchObject({ cash: 0n, bonus: 0n });
    expect(await payment(paymentId)).toEqual({ disputedCents: 2499, status: "disputed" });

    await deliverAll([disputeEvent("charge.dispute.closed", dp, paymentId, 2499, "won")]);
    expect(await userBalances(player.id)).toMatchObject({ cash: 2499n, bonus: 2501n });
    expect(await payment(paymentId)).toEqual({ disputedCents: 0, status: "succeeded" });
    // Its later events, and the funds' return, give nothing more and take nothing again.
    await deliverAll([
      disputeEvent("charge.dispute.funds_reinstated", dp, paymentId, 2499),
      disputeEvent("charge.dispute.updated", dp, paymentId, 2499, "won"),
      disputeEvent("charge.dispute.updated", dp, paymentId, 2499),
    ]);
    expect(await userBalances(player.id)).toMatchObject({ cash: 2499n, bonus: 2501n });
    expect(await db().ledgerTransaction.count({ where: { userId: player.id, kind: "reversal" } })).toBe(2);
    // A charge-back stays support's to clear.
    expect(await db().user.findUniqueOrThrow({ where: { id: player.id }, select: { flaggedAt: true } })).not.toEqual({ flaggedAt: null });

    const page = await pageText(await call("/history", { cookie: await sessionCookie(player.id) }));
    expect(page).toContain("Purchase dispute closed: coins given back");
    expect(page).toMatch(/of a \$24\.99 purchase<\/td><td[^>]*>\+2,499 cash · \+2,501 bonus coins/);
    // Bought again in full: the totals name no dispute.
    expect(page).toMatch(/Bought \(charged, less refunds\)<\/dt><dd[^>]*>\$24\.99<\/dd><\/div>/);
  });

  it("gives back only what that dispute took when another took the rest", async () => {
    const { player, paymentId } = await paidPlayer(mode);
    const first = `dp_first_${Date.now()}`;
    const second = `${first}_2`;
    // The first dispute takes 1,000 cash (and its bonus share); the second asks more cash than is left.
    await deliverAll([disputeEvent("charge.dispute.created", first, paymentId, 1000)]);
    await deliverAll([disputeEvent("charge.dispute.created", second, paymentId, 1499)]);
    expect(await userBalances(player.id)).toMatchObject({ cash: 0n, bonus: 0n });
    await deliverAll([disputeEvent("charge.dispute.closed", first, paymentId, 1000, "won")]);
    expect(await userBalances(player.id)).toMatchObject({ cash: 1000n, bonus: 1000n });
    expect(await payment(paymentId)).toEqual({ disputedCents: 1499, status: "succeeded" });
  });

  it("takes nothing for a dispute first heard of as won, whatever comes after", async () => {
    const { player, paymentId } = await paidPlayer(mode);
    const dp = `dp_first_won_${Date.now()}`;
    await deliverAll([disputeEvent("charge.dispute.closed", dp, paymentId, 2499, "won")]);
    expect(await db().paymentDispute.findUniqueOrThrow({ where: { disputeId: dp }, select: { amountCents: true, coveredCents: true } })).toEqual({
      amountCents: 2499,
      coveredCents: 0,
    });
    await deliverAll([disputeEvent("charge.dispute.created", dp, paymentId, 2499), disputeEvent("charge.dispute.funds_withdrawn", dp, paymentId, 2499)]);
    expect(await userBalances(player.id)).toMatchObject({ cash: 2499n, bonus: 2501n });
    expect(await payment(paymentId)).toEqual({ disputedCents: 0, status: "succeeded" });
  });

  it("ends with the coins back and nothing disputed however its events interleave", async () => {
    const { player, paymentId } = await paidPlayer(mode);
    const dp = `dp_race_${Date.now()}`;
    await deliverAll([
      ...Array.from({ length: 6 }, () => disputeEvent("charge.dispute.created", dp, paymentId, 2499)),
      ...Array.from({ length: 6 }, () => disputeEvent("charge.dispute.closed", dp, paymentId, 2499, "won")),
      ...Array.from({ length: 4 }, () => disputeEvent("charge.dispute.funds_reinstated", dp, paymentId, 2499)),
    ]);
    expect(await userBalances(player.id)).toMatchObject({ cash: 2499n, bonus: 2501n });
    expect(await payment(paymentId)).toEqual({ disputedCents: 0, status: "succeeded" });
    expect(await db().paymentDispute.count({ where: { disputeId: dp } })).toBe(1);
  });

  it("takes back on a lost dispute's close, and moves nothing for an inquiry until it escalates", async () => {
    const { player, paymentId } = await paidPlayer(mode);
    const inquiry = `dp_inquiry_${Date.now()}`;
    await deliverAll([
      disputeEvent("charge.dispute.created", inquiry, paymentId, 2499, "warning_needs_response"),
      disputeEvent("charge.dispute.updated", inquiry, paymentId, 2499, "warning_under_review"),
      disputeEvent("charge.dispute.closed", `${inquiry}_2`, paymentId, 2499, "warning_closed"),
    ]);
    expect(await userBalances(player.id)).toMatchObject({ cash: 2499n, bonus: 2501n });
    // Escalated to a charge-back, the same dispute takes back what it covers.
    await deliverAll([disputeEvent("charge.dispute.updated", inquiry, paymentId, 1000, "needs_response")]);
    expect(await userBalances(player.id)).toMatchObject({ cash: 1499n, bonus: 1501n });
    await deliverAll([disputeEvent("charge.dispute.closed", `dp_lost_${Date.now()}`, paymentId, 2499, "lost")]);
    expect(await userBalances(player.id)).toMatchObject({ cash: 0n, bonus: 0n });
    expect(await payment(paymentId)).toEqual({ disputedCents: 2499, status: "disputed" });
  });

  it("leaves a won dispute recorded before its coins were kept to support, flagged", async () => {
    const { player, paymentId } = await paidPlayer(mode);
    const dp = `dp_old_${Date.now()}`;
    await deliverAll([disputeEvent("charge.dispute.created", dp, paymentId, 1000)]);
    // As the migration leaves a dispute recorded before ADR 108: the coins it took unknown.
    await db().paymentDispute.update({ where: { disputeId: dp }, data: { takenCash: null, takenBonus: null } });
    await db().user.update({ where: { id: player.id }, data: { flaggedAt: null, flagReason: null } });
    await deliverAll([disputeEvent("charge.dispute.closed", dp, paymentId, 1000, "won")]);
    expect(await userBalances(player.id)).toMatchObject({ cash: 1499n, bonus: 1501n });
    expect(await payment(paymentId)).toEqual({ disputedCents: 0, status: "succeeded" });
    const { flagReason } = await db().user.findUniqueOrThrow({ where: { id: player.id }, select: { flagReason: true } });
    expect(flagReason).toContain(`dispute ${dp} of ${paymentId} won`);
  });

  it("gives a VIP purchase disputed in full its days back", async () => {
    const { player, paymentId } = await paidPlayer(mode, priceVip("silver")!);
    const expiry = async () => (await db().user.findUniqueOrThrow({ where: { id: player.id }, select: { vipExpiry: true } })).vipExpiry!.getTime();
    const bought = await expiry();
    const dp = `dp_vip_${Date.now()}`;
    await deliverAll([disputeEvent("charge.dispute.created", dp, paymentId, 1999)]);
    expect(await expiry()).toBeLessThanOrEqual(Date.now());
    await deliverAll([disputeEvent("charge.dispute.closed", dp, paymentId, 1999, "won")]);
    expect(await expiry()).toBeGreaterThanOrEqual(bought - 60_000);
    expect(await payment(paymentId)).toEqual({ disputedCents: 0, status: "succeeded" });
  });
});

import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalances } from "~/models/money/ledger.server";
import { flagUser } from "~/models/accounts/user.server";
import { approvePayout } from "~/services/back-office/admin.server";
import { settleLeg, settleOpenPayouts } from "~/services/money/payouts.server";
import { clearFlag } from "~/services/money/reconciliation.server";
import { readToast } from "~/web/toast.server";
import { call, cookiesFrom, gatedAdmin, pageText, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";
import { setUpStripeMode } from "../support/stripe-mode";
import { scaled } from "../support/timeouts";

/**
 * Reconciliation in the back office (ADR 050): a refund the provider refused is held for
 * review with the account flagged; an admin who checked with the provider records that it
 * reached the card (the leg completes) or that it did not (the amount comes back as cash),
 * then clears the flag they saw. Against the real Stripe adapter and the fake Stripe server.
 */
const mode = setUpStripeMode();

/** A player who paid $24.99 by card and asked for $10 back, whose refund the provider refused: held for review. */
async function heldForReview() {
  const admin = await gatedAdmin();
  const player = await createTestUser();
  const cookie = await sessionCookie(player.id);
  const created = await call("/api/create-payment-intent", { method: "POST", cookie, json: { packageId: "package_4" } });
  const { paymentIntentId } = (await created.json()) as { paymentIntentId: string };
  mode.stripe.succeed(paymentIntentId);
  expect((await call("/api/confirm-payment", { method: "POST", cookie, json: { paymentIntentId } })).status).toBe(200);
  const withdrawal = await call("/api/withdraw", { method: "POST", cookie, json: { amount: 10, method: "venmo", accountInfo: "lucky-lou" } });
  const { id } = (await withdrawal.json()) as { id: string };
  // Refunded at the provider's dashboard meanwhile: Stripe refuses ours.
  mode.stripe.intents.get(paymentIntentId)!.status = "canceled";
  expect(await approvePayout(admin.id, id)).toEqual({ status: "processing" });
  const leg = await db().payoutLeg.findFirstOrThrow({ where: { withdrawalId: id } });
  expect(leg.status).toBe("review");
  return { admin, player, cookie, withdrawalId: id, legId: leg.id, paymentIntentId };
}

const post = (path: string, cookie: string, json: unknown) => call(path, { method: "POST", cookie, json });
const hold = (userId: string) => db().ledgerAccount.findFirstOrThrow({ where: { userId, kind: "withdrawal_hold" }, select: { balance: true } });
const standing = (userId: string) => db().user.findUniqueOrThrow({ where: { id: userId }, select: { flaggedAt: true, flagReason: true } });

describe("refunds held for review", () => {
  it("are listed on the payouts tab, and recorded from its form as reached the card: the refund completes and nothing comes back", async () => {
    const { admin, player, cookie, withdrawalId, legId, paymentIntentId } = await heldForReview();
    const tab = await pageText(await call("/admin/payouts", { cookie: admin.cookie }));
    expect(tab).toContain("Refunds held for review");
    expect(tab).toContain(`/admin/refunds/${legId}/reconcile`);
    expect(tab).toContain(paymentIntentId);
    const cash = (await userBalances(player.id)).cash;

    const answer = await call(`/admin/refunds/${legId}/reconcile`, {
      method: "POST",
      cookie: admin.cookie,
      form: { reference: "re_dashboard_1" },
      headers: { Referer: "http://localhost/admin/payouts" },
    });
    expect(answer.headers.get("Location")).toBe("/admin/payouts");
    expect((await readToast(new Request("http://localhost/", { headers: { Cookie: cookiesFrom(answer) } }))).toast).toMatchObject({ type: "success" });
    expect(await db().payoutLeg.findUniqueOrThrow({ where: { id: legId }, select: { status: true, providerReference: true, completedById: true } })).toEqual({
      status: "completed",
      providerReference: "reconciled:re_dashboard_1",
      completedById: admin.id,
    });
    expect(await db().withdrawal.findUniqueOrThrow({ where: { id: withdrawalId }, select: { status: true } })).toEqual({ status: "completed" });
    expect((await hold(player.id)).balance).toBe(0n);
    expect((await userBalances(player.id)).cash).toBe(cash);
    expect(await db().auditEvent.count({ where: { actor: admin.id, action: "payout.leg_completed", target: `withdrawal:${withdrawalId}` } })).toBe(1);
    // The player hears of it on their next page.
    expect(await pageText(await call("/", { cookie }))).toContain("Withdrawal Completed");
  });

  it("are recorded as not refunded through the API: the amount and the payment's cents come back, the player is told why", async () => {
    const { admin, player, withdrawalId, legId, paymentIntentId } = await heldForReview();
    const cash = (await userBalances(player.id)).cash;
    // An API client finds the refund to reconcile by listing them.
    const held = async () =>
      ((await (await call("/api/admin/refunds", { cookie: admin.cookie })).json()) as { legId: string; withdrawalId: string }[]).filter(
        (r) => r.withdrawalId === withdrawalId,
      );
    expect(await held()).toEqual([expect.objectContaining({ legId, amount: "10.00", payment: expect.objectContaining({ id: paymentIntentId }) })]);
    const answer = await post(`/api/admin/refunds/${legId}/reconcile`, admin.cookie, { failure: "Not refunded at the provider" });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ status: "failed" });
    expect((await userBalances(player.id)).cash - cash).toBe(1000n);
    expect((await hold(player.id)).balance).toBe(0n);
    expect(await db().payment.findUniqueOrThrow({ where: { providerPaymentId: paymentIntentId }, select: { refundedCents: true } })).toEqual({
      refundedCents: 0,
    });
    expect(await db().withdrawal.findUniqueOrThrow({ where: { id: withdrawalId }, select: { status: true, failureReason: true } })).toEqual({
      status: "failed",
      failureReason: "Not refunded at the provider",
    });
    expect(await held()).toEqual([]);
  });

  it("are settled once when admins race, and never by the provider's sweep or events", async () => {
    const { player, legId } = await heldForReview();
    await settleOpenPayouts();
    expect((await db().payoutLeg.findUniqueOrThrow({ where: { id: legId } })).status).toBe("review");
    const admins = await Promise.all(Array.from({ length: 6 }, () => gatedAdmin()));
    const answers = await Promise.all(
      admins.map((a, i) => post(`/api/admin/refunds/${legId}/reconcile`, a.cookie, i % 2 ? { failure: "Not refunded" } : { reference: `re_${i}` })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(await db().ledgerTransaction.count({ where: { OR: [{ reference: `payout:${legId}` }, { reference: `payout-return:${legId}` }] } })).toBe(1);
    expect((await hold(player.id)).balance).toBe(0n);
  });

  it("refuse the admin's own account, an unknown refund, one not held for review and bad input, and change nothing", async () => {
    const { admin, legId } = await heldForReview();
    const leg = await db().payoutLeg.findUniqueOrThrow({ where: { id: legId }, include: { withdrawal: true } });
    await db().user.update({ where: { id: leg.withdrawal.userId }, data: { isAdmin: true } });
    const own = await sessionCookie(leg.withdrawal.userId);
    await db().session.updateMany({ where: { userId: leg.withdrawal.userId }, data: { adminGatePassedAt: new Date() } });
    expect((await post(`/api/admin/refunds/${legId}/reconcile`, own, { reference: "re_mine" })).status).toBe(403);
    expect((await post(`/api/admin/refunds/00000000-0000-4000-8000-000000000000/reconcile`, admin.cookie, { reference: "re_x" })).status).toBe(404);
    const bad = await post(`/api/admin/refunds/${legId}/reconcile`, admin.cookie, { reference: "re 1; DROP" });
    expect(bad.status).toBe(400);
    expect((await post(`/api/admin/refunds/${legId}/reconcile`, admin.cookie, { reference: "re_1", failure: "both" })).status).toBe(400);
    expect((await db().payoutLeg.findUniqueOrThrow({ where: { id: legId } })).status).toBe("review");
    expect((await post(`/api/admin/refunds/${legId}/reconcile`, admin.cookie, { reference: "re_ok" })).status).toBe(200);
    expect((await post(`/api/admin/refunds/${legId}/reconcile`, admin.cookie, { reference: "re_again" })).status).toBe(409);
  });

  it("settle only a leg held for review, even when asked for one that is not", async () => {
    const { admin, withdrawalId, legId } = await heldForReview();
    await db().payoutLeg.update({ where: { id: legId }, data: { status: "processing" } });
    expect(await settleLeg(withdrawalId, legId, { status: "failed", reason: "Not refunded", by: admin.id, held: true }, new Date())).toBe(false);
    expect(await settleLeg(withdrawalId, legId, { status: "completed", reference: "reconciled:re_1", by: admin.id, held: true }, new Date())).toBe(false);
    expect((await db().payoutLeg.findUniqueOrThrow({ where: { id: legId } })).status).toBe("processing");
  });
});

describe("a flag", () => {
  it("stays while a refund is held for review, then is cleared with a note, once, and the player can be paid again", async () => {
    const { admin, player, legId } = await heldForReview();
    const { flaggedAt } = await standing(player.id);
    const clear = (cookie: string, seen = flaggedAt!.toISOString()) =>
      post(`/api/admin/users/${player.id}/clear-flag`, cookie, { flaggedAt: seen, note: "Refunded at the dashboard" });
    const first = await clear(admin.cookie);
    expect(first.status).toBe(409);
    expect(await first.json()).toEqual({ message: "A refund of this player's is held for review: reconcile it first" });
    expect((await post(`/api/admin/refunds/${legId}/reconcile`, admin.cookie, { reference: "re_dash" })).status).toBe(200);

    // The users tab offers it, with the flag's time.
    const users = await pageText(await call(`/admin/users?q=${encodeURIComponent(player.email)}`, { cookie: admin.cookie }));
    expect(users).toContain(`/admin/users/${player.id}/clear-flag`);
    expect(users).toContain(flaggedAt!.toISOString());

    const others = await Promise.all(Array.from({ length: 5 }, () => gatedAdmin()));
    const answers = await Promise.all(others.map((a) => clear(a.cookie)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await standing(player.id)).toEqual({ flaggedAt: null, flagReason: null });
    const audit = await db().auditEvent.findMany({ where: { action: "user.clear_flag", target: `user:${player.id}` } });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toEqual({
      before: { flagReason: expect.stringMatching(/^refund of a withdrawal refused by the provider/) },
      note: "Refunded at the dashboard",
    });

    // Payable again: a new withdrawal is approved (it was refused while flagged).
    const again = await call("/api/withdraw", {
      method: "POST",
      cookie: await sessionCookie(player.id),
      json: { amount: 10, method: "venmo", accountInfo: "lucky-lou" },
    });
    expect(again.status).toBe(200);
    const { id } = (await again.json()) as { id: string };
    expect(await approvePayout(admin.id, id)).toEqual({ status: "processing" });
  });

  it("is not cleared while a refund goes into review at that moment: the clear waits for it and is refused; the flag set again is later", async () => {
    const { admin, player, legId } = await heldForReview();
    expect((await post(`/api/admin/refunds/${legId}/reconcile`, admin.cookie, { reference: "re_dash_again" })).status).toBe(200);
    const { flaggedAt } = await standing(player.id);
    // Another refund of the player's is refused now, in the same pass (the same time): its
    // leg goes into review and the account is flagged again, in one transaction.
    let commit = () => {};
    let flagged = () => {};
    const wasFlagged = new Promise<void>((resolve) => (flagged = resolve));
    const refusal = db().$transaction(
      async (tx) => {
        await tx.payoutLeg.update({ where: { id: legId }, data: { status: "review" } });
        await flagUser(tx, player.id, "refund of a withdrawal refused by the provider: again", flaggedAt!);
        flagged();
        await new Promise<void>((resolve) => (commit = resolve));
      },
      { timeout: scaled(30_000) },
    );
    await wasFlagged;
    const clearing = clearFlag(admin.id, player.id, flaggedAt!, "Refunded at the dashboard").then(
      () => "cleared",
      (error: Error) => error.message,
    );
    await expect
      .poll(async () => {
        const [waiting] = await db().$queryRaw<{ count: bigint }[]>`
          SELECT count(*) AS count FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
        return waiting!.count;
      })
      .toBeGreaterThan(0n);
    commit();
    await refusal;
    expect(await clearing).toBe("A refund of this player's is held for review: reconcile it first");
    const after = await standing(player.id);
    expect(after.flagReason).toBe("refund of a withdrawal refused by the provider: again");
    expect(after.flaggedAt!.getTime()).toBeGreaterThan(flaggedAt!.getTime());
  });

  it("set again meanwhile is not cleared by a form for the one before; nor is the admin's own, nor an account not flagged", async () => {
    const admin = await gatedAdmin();
    const player = await createTestUser();
    const earlier = new Date("2026-11-20T10:00:00.000Z");
    await db().user.update({ where: { id: player.id }, data: { flaggedAt: new Date("2026-11-21T09:30:00.000Z"), flagReason: "dispute of pi_2" } });
    const stale = await post(`/api/admin/users/${player.id}/clear-flag`, admin.cookie, { flaggedAt: earlier.toISOString(), note: "Reconciled" });
    expect(stale.status).toBe(409);
    expect((await standing(player.id)).flagReason).toBe("dispute of pi_2");
    await db().user.update({ where: { id: admin.id }, data: { flaggedAt: earlier, flagReason: "test" } });
    expect((await post(`/api/admin/users/${admin.id}/clear-flag`, admin.cookie, { flaggedAt: earlier.toISOString(), note: "Mine" })).status).toBe(403);
    const unflagged = await createTestUser();
    expect((await post(`/api/admin/users/${unflagged.id}/clear-flag`, admin.cookie, { flaggedAt: earlier.toISOString(), note: "None" })).status).toBe(409);
    expect((await post(`/api/admin/users/${player.id}/clear-flag`, admin.cookie, { flaggedAt: "yesterday", note: "Reconciled" })).status).toBe(400);
    expect((await post(`/api/admin/users/${player.id}/clear-flag`, admin.cookie, { flaggedAt: earlier.toISOString(), note: "" })).status).toBe(400);
  });
});

import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalances } from "~/models/money/ledger.server";
import { finishUnderAgeClosures } from "~/services/accounts/age-closure.server";
import { call, gatedAdmin, pageText, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";
import type { VerificationSession } from "../support/fake-stripe";
import { createIntent, setUpStripeMode } from "../support/stripe-mode";

/**
 * Know your player (issue 35; ADR 080): Stripe Identity against the local double, its
 * webhooks through the signed, idempotent webhook route, and the rules of GB (verified before
 * the first deposit and any entry). IE stands for a place without those rules.
 */
const mode = setUpStripeMode({ env: { ALLOWED_COUNTRIES: "GB,IE" } });

async function player(country = "GB") {
  const user = await createTestUser({ identityVerified: false, country });
  return { ...user, cookie: await sessionCookie(user.id) };
}

/** Starts a check from the verification page: the answer sends the player to Stripe's page. */
async function startCheck(cookie: string): Promise<VerificationSession> {
  const response = await call("/verify", { method: "POST", cookie, form: {} });
  expect(response.status).toBe(303);
  const session = [...mode.stripe.identitySessions.values()].find((vs) => vs.url === response.headers.get("Location"));
  return session!;
}

const event = (id: string, type: string, object: unknown) => JSON.stringify({ id, object: "event", type, data: { object } });
const userRow = (id: string) => db().user.findUniqueOrThrow({ where: { id } });
const deposit = (cookie: string) => call("/api/create-payment-intent", { method: "POST", cookie, json: { packageId: "package_2" } });
const ADULT = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10" };

describe("identity verification through Stripe Identity", () => {
  it("a GB player is refused deposits and entries until verified, and sent to verify from checkout", async () => {
    const p = await player();
    const refused = await deposit(p.cookie);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: expect.stringContaining("verify your identity first") });
    const raffle = await createTestRaffle();
    const entry = await call(`/api/raffles/${raffle.id}/enter`, { method: "POST", cookie: p.cookie });
    expect(entry.status).toBe(403);
    // Refused by enter_raffles itself, in the batch's statement: no ticket, nothing spent.
    expect(await entry.json()).toEqual({ message: expect.stringContaining("verify your identity first") });
    expect(await db().entry.count({ where: { raffleId: raffle.id } })).toBe(0);
    const checkout = await call("/checkout?package=package_2", { cookie: p.cookie });
    expect(checkout.status).toBe(302);
    expect(checkout.headers.get("Location")).toBe("/verify");
    const page = await pageText(await call("/verify", { cookie: p.cookie }));
    expect(page).toContain("The law in Great Britain requires us to check your age and identity");
    expect(page).toContain("We never see or store them");
    // Elsewhere, no check is needed before play.
    const ie = await player("IE");
    expect((await deposit(ie.cookie)).status).toBe(200);
  });

  it("verified: the signed webhook verifies once, however often it comes; a forged one changes nothing", async () => {
    const p = await player();
    const vs = await startCheck(p.cookie);
    expect(vs.metadata).toEqual({ userId: p.id });
    const verified = mode.stripe.verifyIdentity(vs.id, ADULT);
    const payload = event("evt_identity_ok", "identity.verification_session.verified", verified);
    const forged = await mode.deliver(payload, mode.sign(payload, { secret: "whsec_not_ours" }));
    expect(forged.status).toBe(400);
    expect((await userRow(p.id)).identityVerifiedAt).toBeNull();

    const answers = await Promise.all(Array.from({ length: 6 }, () => mode.deliver(payload)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    const row = await userRow(p.id);
    expect(row.identityVerifiedAt).not.toBeNull();
    expect(row.identityKey).toMatch(/^identity:[0-9a-f]{64}$/);
    expect(await db().auditEvent.count({ where: { action: "identity.verified", target: `user:${p.id}` } })).toBe(1);
    const check = await db().identityCheck.findUniqueOrThrow({ where: { providerSessionId: vs.id } });
    expect(check).toMatchObject({ status: "verified", verifiedFirstName: "Ada", verifiedLastName: "Lovelace", provider: "stripe" });
    expect((await deposit(p.cookie)).status).toBe(200);
    // A late requires_input for the same session changes nothing.
    mode.stripe.failIdentity(vs.id);
    expect((await mode.deliver(event("evt_identity_late", "identity.verification_session.requires_input", vs))).status).toBe(200);
    expect((await db().identityCheck.findUniqueOrThrow({ where: { providerSessionId: vs.id } })).status).toBe("verified");
  });

  it("failed: the reason is shown, deposits stay closed, and the player may try again", async () => {
    const p = await player();
    const vs = await startCheck(p.cookie);
    mode.stripe.failIdentity(vs.id, "document_unverified_other", "The document could not be read.");
    expect((await mode.deliver(event("evt_identity_fail", "identity.verification_session.requires_input", vs))).status).toBe(200);
    expect((await userRow(p.id)).identityVerifiedAt).toBeNull();
    expect((await deposit(p.cookie)).status).toBe(403);
    const page = await pageText(await call("/verify", { cookie: p.cookie }));
    expect(page).toContain("The document could not be read.");
    expect(page).toContain("Try again");
    // The player retries in the same session at Stripe and comes back with it.
    mode.stripe.verifyIdentity(vs.id, ADULT);
    const back = await call(`/verify?session=${vs.id}`, { cookie: p.cookie });
    expect(back.status).toBe(302);
    expect((await userRow(p.id)).identityVerifiedAt).not.toBeNull();
  });

  it("under 18: the account is closed and its card payments refunded", async () => {
    const p = await player("IE");
    const intent = await createIntent(p.cookie);
    mode.stripe.succeed(intent.paymentIntentId);
    expect((await call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId: intent.paymentIntentId } })).status).toBe(200);
    expect((await userBalances(p.id)).cash).toBeGreaterThan(0n);
    const vs = await startCheck(p.cookie);
    const sixteen = `${new Date().getUTCFullYear() - 16}-01-01`;
    mode.stripe.verifyIdentity(vs.id, { firstName: "Young", lastName: "Player", dob: sixteen });
    const payload = event("evt_identity_minor", "identity.verification_session.verified", vs);
    expect((await mode.deliver(payload)).status).toBe(200);
    expect((await mode.deliver(payload)).status).toBe(200);
    const row = await userRow(p.id);
    expect(row.closedAt).not.toBeNull();
    expect(row.identityVerifiedAt).toBeNull();
    const refunds = [...mode.stripe.refunds.values()].filter((r) => r.payment_intent === intent.paymentIntentId);
    expect(refunds.map((r) => r.amount)).toEqual([499]);
    expect(await db().payment.findUniqueOrThrow({ where: { providerPaymentId: intent.paymentIntentId } })).toMatchObject({
      status: "refunded",
      refundedCents: 499,
    });
    expect(await userBalances(p.id)).toEqual({ cash: 0n, bonus: 0n });
    expect((await db().identityCheck.findUniqueOrThrow({ where: { providerSessionId: vs.id } })).status).toBe("under_age");
  });

  /** A player who bought $4.99 of coins, then was found under 18 by `deliver`ing the result. */
  async function minorWithPayment(deliver: (payload: string) => Promise<Response>) {
    const p = await player("IE");
    const intent = await createIntent(p.cookie);
    mode.stripe.succeed(intent.paymentIntentId);
    expect((await call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId: intent.paymentIntentId } })).status).toBe(200);
    const vs = await startCheck(p.cookie);
    mode.stripe.verifyIdentity(vs.id, { firstName: "Young", lastName: "Player", dob: `${new Date().getUTCFullYear() - 16}-01-01` });
    const answer = await deliver(event(`evt_minor_${vs.id}`, "identity.verification_session.verified", vs));
    const refunds = () => [...mode.stripe.refunds.values()].filter((r) => r.payment_intent === intent.paymentIntentId);
    return { ...p, intent, answer, refunds };
  }

  it("under 18 with a refund the card refuses: nothing of the minor's money is voided, and support is told", async () => {
    mode.stripe.refundOutcome = "failed";
    try {
      const p = await minorWithPayment((payload) => mode.deliver(payload));
      expect(p.answer.status).toBe(200);
      const row = await userRow(p.id);
      expect(row.closedAt).toBeNull();
      expect(row.suspendedAt).not.toBeNull();
      expect(row.flagReason).toContain("$4.99 of card payments could not go back to the card");
      expect((await userBalances(p.id)).cash).toBeGreaterThan(0n);
      // The sweep finds it again, and neither refunds twice nor renews the flag an admin may be reading.
      await finishUnderAgeClosures();
      expect((await userRow(p.id)).closedAt).toBeNull();
      expect((await userRow(p.id)).flaggedAt).toEqual(row.flaggedAt);
      expect(p.refunds()).toHaveLength(1);
    } finally {
      mode.stripe.refundOutcome = "succeeded";
    }
  });

  it("under 18 while Stripe's answers are lost: the sweep finishes the refund and the closure, once", async () => {
    const p = await minorWithPayment((payload) => mode.stripe.loseAnswers(() => mode.deliver(payload)));
    // Stripe is asked to send the event again; the sweep does not wait for it.
    expect(p.answer.status).toBe(503);
    expect((await userRow(p.id)).closedAt).toBeNull();
    expect(p.refunds()).toHaveLength(1);
    expect(await finishUnderAgeClosures()).toBeGreaterThanOrEqual(1);
    expect((await userRow(p.id)).closedAt).not.toBeNull();
    expect(p.refunds().map((r) => r.amount)).toEqual([499]);
    expect(await userBalances(p.id)).toEqual({ cash: 0n, bonus: 0n });
    expect(await db().payment.findUniqueOrThrow({ where: { providerPaymentId: p.intent.paymentIntentId } })).toMatchObject({ refundedCents: 499 });
  });

  it("under 18, then found an adult by support: the sweep leaves the account to support", async () => {
    const p = await minorWithPayment((payload) => mode.stripe.loseAnswers(() => mode.deliver(payload)));
    const admin = await gatedAdmin();
    const reason = "Birth certificate checked: the provider misread the year";
    expect((await call(`/api/admin/users/${p.id}/verify`, { method: "POST", cookie: admin.cookie, json: { reason } })).status).toBe(200);
    await finishUnderAgeClosures();
    expect((await userRow(p.id)).closedAt).toBeNull();
  });

  it("under 18 with a refund the bank turns down after the closure: support is told once, with the amount", async () => {
    mode.stripe.refundOutcome = "pending";
    let p: Awaited<ReturnType<typeof minorWithPayment>>;
    try {
      p = await minorWithPayment((payload) => mode.deliver(payload));
    } finally {
      mode.stripe.refundOutcome = "succeeded";
    }
    // Pending counts as sent: the coins went with it and the account closed.
    const closed = await userRow(p.id);
    expect(closed.closedAt).not.toBeNull();
    expect(closed.flagReason).toBe("under 18 by a verified date of birth: account closed, card payments refunded");
    const [refund] = p.refunds();
    const updated = (id: string, type: string) => mode.deliver(event(id, type, { id: refund!.id, object: "refund" }));
    // Still pending at the provider: an event alone tells nobody anything.
    expect((await updated("evt_minor_refund_pending", "refund.updated")).status).toBe(200);
    expect(await userRow(p.id)).toMatchObject({ flaggedAt: closed.flaggedAt, flagReason: closed.flagReason });

    mode.stripe.settleRefund(refund!.id, "failed", "expired_or_canceled_card");
    // Stripe tells a failure by two events (and may repeat each); they may come at once.
    const answers = await Promise.all([
      updated("evt_minor_refund_failed", "refund.failed"),
      updated("evt_minor_charge_refund", "charge.refund.updated"),
      updated("evt_minor_refund_updated", "refund.updated"),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const flagged = await userRow(p.id);
    expect(flagged.flaggedAt!.getTime()).toBeGreaterThan(closed.flaggedAt!.getTime());
    expect(flagged.flagReason).toContain("a refund of $4.99 to the card failed at the bank (expired_or_canceled_card)");
    expect(await db().auditEvent.findMany({ where: { target: `user:${p.id}`, action: "account.under_age_refund_failed" }, select: { details: true } })).toEqual(
      [{ details: { refundId: refund!.id, amountCents: 499, failureReason: "expired_or_canceled_card" } }],
    );
    // Support clears the flag once the money went back another way; a late repeat does not raise it again.
    await db().user.update({ where: { id: p.id }, data: { flaggedAt: null, flagReason: null } });
    expect((await updated("evt_minor_refund_late", "charge.refund.updated")).status).toBe(200);
    expect((await userRow(p.id)).flaggedAt).toBeNull();
  });

  it("a failed refund that is neither a withdrawal's nor an under-age account's is left alone", async () => {
    const p = await player("IE");
    const intent = await createIntent(p.cookie);
    mode.stripe.succeed(intent.paymentIntentId);
    expect((await call("/api/confirm-payment", { method: "POST", cookie: p.cookie, json: { paymentIntentId: intent.paymentIntentId } })).status).toBe(200);
    // A refund made by hand in Stripe's dashboard, naming the player, that the bank turned down.
    const refund = {
      id: "re_by_hand",
      object: "refund" as const,
      amount: 499,
      currency: "usd",
      payment_intent: intent.paymentIntentId,
      status: "failed" as const,
      failure_reason: "expired_or_canceled_card",
      metadata: { userId: p.id, reason: "goodwill" },
    };
    mode.stripe.refunds.set(refund.id, refund);
    expect((await mode.deliver(event("evt_other_refund", "refund.failed", refund))).status).toBe(200);
    expect((await userRow(p.id)).flaggedAt).toBeNull();
    expect(await db().auditEvent.count({ where: { target: `user:${p.id}`, action: "account.under_age_refund_failed" } })).toBe(0);
  });

  it("refuses a result for another player's session, and ignores a session we did not start", async () => {
    const owner = await player();
    const other = await player();
    const vs = await startCheck(owner.cookie);
    mode.stripe.verifyIdentity(vs.id, ADULT);
    const stolen = await call(`/verify?session=${vs.id}`, { cookie: other.cookie });
    expect(stolen.status).toBe(404);
    expect((await userRow(other.id)).identityVerifiedAt).toBeNull();
    expect((await userRow(owner.id)).identityVerifiedAt).toBeNull();
    // A session whose Stripe record names another player is never applied to ours.
    const mine = await startCheck(other.cookie);
    mode.stripe.verifyIdentity(mine.id, ADULT);
    mine.metadata = { userId: owner.id };
    expect((await mode.deliver(event("evt_identity_swap", "identity.verification_session.verified", mine))).status).toBe(200);
    expect((await userRow(other.id)).identityVerifiedAt).toBeNull();
    expect((await userRow(owner.id)).identityVerifiedAt).toBeNull();
  });

  it("provider down: 503 with Retry-After, deposits stay closed, and the webhook asks Stripe to retry", async () => {
    const p = await player();
    const down = await mode.stripe.down(() => call("/verify", { method: "POST", cookie: p.cookie, form: {} }));
    expect(down.status).toBe(503);
    expect(down.headers.get("Retry-After")).toBe("60");
    expect(await pageText(down)).toContain("The identity check service is not answering right now");
    expect((await deposit(p.cookie)).status).toBe(403);

    const vs = await startCheck(p.cookie);
    mode.stripe.verifyIdentity(vs.id, ADULT);
    const payload = event("evt_identity_outage", "identity.verification_session.verified", vs);
    const during = await mode.stripe.down(() => mode.deliver(payload));
    expect(during.status).toBe(503);
    expect((await userRow(p.id)).identityVerifiedAt).toBeNull();
    const back = await mode.stripe.down(() => call(`/verify?session=${vs.id}`, { cookie: p.cookie }));
    expect(back.status).toBe(503);
    expect(back.headers.get("Retry-After")).toBe("60");
    expect((await mode.deliver(payload)).status).toBe(200);
    expect((await userRow(p.id)).identityVerifiedAt).not.toBeNull();
  });

  it("a verified name and date of birth carries a running exclusion to an account with another email", async () => {
    const first = await player();
    const vs = await startCheck(first.cookie);
    mode.stripe.verifyIdentity(vs.id, ADULT);
    await mode.deliver(event("evt_identity_person_1", "identity.verification_session.verified", vs));
    const until = new Date(Date.now() + 180 * 86_400_000);
    await db().user.update({ where: { id: first.id }, data: { excludedUntil: until, exclusionKind: "self_exclusion" } });
    const { closeAccount } = await import("~/services/accounts/account-closure.server");
    await db().user.update({ where: { id: first.id }, data: { passwordHash: null } });
    await closeAccount(first.id, { typed: "CLOSE" });

    const second = await player();
    const again = await startCheck(second.cookie);
    mode.stripe.verifyIdentity(again.id, { ...ADULT, firstName: "ADA " });
    await mode.deliver(event("evt_identity_person_2", "identity.verification_session.verified", again));
    const row = await userRow(second.id);
    expect(row.excludedUntil?.getTime()).toBe(until.getTime());
    expect(row.exclusionKind).toBe("self_exclusion");
  });

  it("an admin records a verification done outside the site only with a reason, audited", async () => {
    const admin = await gatedAdmin();
    const p = await player();
    const bare = await call(`/api/admin/users/${p.id}/verify`, { method: "POST", cookie: admin.cookie, json: {} });
    expect(bare.status).toBe(400);
    expect((await userRow(p.id)).identityVerifiedAt).toBeNull();
    const reason = "Passport checked in person at the office";
    expect((await call(`/api/admin/users/${p.id}/verify`, { method: "POST", cookie: admin.cookie, json: { reason } })).status).toBe(200);
    expect((await userRow(p.id)).identityVerifiedAt).not.toBeNull();
    expect(await db().identityCheck.findFirstOrThrow({ where: { userId: p.id } })).toMatchObject({ provider: "outside", reason, recordedById: admin.id });
    const audit = await db().auditEvent.findFirstOrThrow({ where: { action: "user.verify_identity", target: `user:${p.id}` } });
    expect(audit.details).toMatchObject({ reason, outsideTheSite: true });
  });
});

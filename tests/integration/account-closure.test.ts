import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalances } from "~/models/money/ledger.server";
import { requestPasswordReset, sendVerification } from "~/services/accounts/email-tokens.server";
import { hashRecoveryCode, newRecoveryCode } from "~/services/accounts/recovery-codes.server";
import { hashPassword } from "~/services/accounts/password.server";
import { requestWithdrawal } from "~/services/money/withdrawals.server";
import { call, pageText, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser, potTotal } from "../support/factories";
import { fieldError, formAlerts } from "../support/field-error";
import { listening } from "../support/listening";
import { withTotpFactor } from "../support/second-factor";

const close = (cookie: string, form: Record<string, string> = { typed: "close" }) => call("/account/close", { method: "POST", cookie, form });
const enter = (cookie: string, raffleId: string) => call(`/api/raffles/${raffleId}/enter`, { method: "POST", cookie, json: {} });
const signedIn = async (cookie: string) => (await call("/account/close", { cookie })).status === 200;
const closedAt = async (userId: string) => (await db().user.findUniqueOrThrow({ where: { id: userId }, select: { closedAt: true } })).closedAt;

describe("closing an account", () => {
  it("is refused while a withdrawal is in progress, and changes nothing", async () => {
    const p = await createTestUser({ cash: 2000n });
    const cookie = await sessionCookie(p.id);
    await requestWithdrawal(p.id, { amount: "20", method: "paypal", fields: { username: "me@example.com" } });
    const response = await close(cookie);
    expect(response.status).toBe(409);
    expect(await pageText(response)).toMatch(/withdrawal is in progress/);
    expect(await closedAt(p.id)).toBeNull();
    expect(await signedIn(cookie)).toBe(true);
  });

  it("is refused while the player holds cash, with a link to withdraw it", async () => {
    const p = await createTestUser({ cash: 150n, coins: 40n });
    const cookie = await sessionCookie(p.id);
    const page = await pageText(await call("/account/close", { cookie }));
    expect(page).toMatch(/Withdraw your \$1\.50 in cash first/);
    const misspelt = await close(cookie, { typed: "clsoe" });
    expect(misspelt.status).toBe(400);
    expect(fieldError(await pageText(misspelt), "close-account-typed")).toBe("Type CLOSE to confirm.");
    const response = await close(cookie);
    expect(response.status).toBe(409);
    const text = await pageText(response);
    expect(text).toMatch(/You have \$1\.50 in cash\. Withdraw your cash first/);
    expect(text).toContain('href="/withdraw"');
    // A refusal of the closure, not of the word typed: above the form, the field without an error.
    expect(fieldError(text, "close-account-typed")).toBeUndefined();
    expect(await closedAt(p.id)).toBeNull();
    expect(await userBalances(p.id)).toEqual({ cash: 150n, bonus: 40n });
  });

  it("asks a password account for its password", async () => {
    const p = await createTestUser({ coins: 10n });
    await db().user.update({ where: { id: p.id }, data: { passwordHash: await hashPassword("correct horse battery") } });
    const cookie = await sessionCookie(p.id);
    const wrong = await close(cookie, { password: "wrong password!" });
    expect(wrong.status).toBe(400);
    const page = await pageText(wrong);
    expect(fieldError(page, "close-account-password")).toBe("That password is not right: enter your current password to close the account.");
    expect(formAlerts(page)).toEqual([]);
    expect(page).not.toContain("wrong password!");
    const blank = await close(cookie, { password: "" });
    expect(blank.status).toBe(400);
    expect(fieldError(await pageText(blank), "close-account-password")).toBe("Enter your password to close your account.");
    expect(await closedAt(p.id)).toBeNull();
    expect((await close(cookie, { password: "correct horse battery" })).status).toBe(302);
    expect(await closedAt(p.id)).not.toBeNull();
  });

  it("refunds open tickets, forfeits bonus coins, ends every session and keeps only what the law requires", async () => {
    const p = await createTestUser({ coins: 100n });
    const other = await createTestUser({ coins: 100n });
    const raffle = await createTestRaffle();
    const cookie = await sessionCookie(p.id);
    const elsewhere = await sessionCookie(p.id);
    expect((await enter(cookie, raffle.id)).status).toBe(200);
    expect((await enter(cookie, raffle.id)).status).toBe(200);
    expect((await enter(await sessionCookie(other.id), raffle.id)).status).toBe(200);
    await db().userIdentity.create({ data: { provider: "test", subject: `s-${p.id}`, userId: p.id } });
    await db().payment.create({
      data: { userId: p.id, provider: "demo", providerPaymentId: `demo_${p.id}`, purpose: "coins", product: "package_1", amountCents: 199, status: "failed" },
    });
    const promotionsBefore = await promotions();
    const events = await listening("raffle_events");

    const response = await close(cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect(response.headers.getSetCookie().some((c) => /^rr_session=;|Max-Age=0/.test(c))).toBe(true);

    // The tickets left the draw, the other player's stayed; every coin went back and then to promotions.
    expect(await db().entry.count({ where: { raffleId: raffle.id, userId: p.id } })).toBe(0);
    expect(await db().entry.findMany({ where: { raffleId: raffle.id }, select: { position: true } })).toEqual([{ position: 0 }]);
    expect(await potTotal(raffle.id)).toBe(raffle.entryPrice);
    expect(await userBalances(p.id)).toEqual({ cash: 0n, bonus: 0n });
    expect(await promotions()).toBe(promotionsBefore + 100n);
    expect(await db().ledgerTransaction.count({ where: { userId: p.id, kind: "refund", memo: "account closed" } })).toBe(1);
    // Open pages hear that the pot went down (a pot event with fewer tickets would read as an old one).
    try {
      await events.hears("raffle_events", { type: "round", raffleId: raffle.id, kind: "regular", tier: "micro", ticketsTakenBack: true });
    } finally {
      await events.end();
    }

    const user = await db().user.findUniqueOrThrow({ where: { id: p.id } });
    expect(user).toMatchObject({
      email: `closed-${p.id}@closed.invalid`,
      username: "Closed account",
      usernameKey: null,
      firstName: null,
      passwordHash: null,
      dateOfBirth: null,
    });
    expect(user.closedAt).not.toBeNull();
    expect(await db().session.count({ where: { userId: p.id } })).toBe(0);
    expect(await db().userIdentity.count({ where: { userId: p.id } })).toBe(0);
    expect(await signedIn(elsewhere)).toBe(false);
    // What the law requires stays: the ledger, the payments, the audit trail.
    expect(await db().payment.count({ where: { userId: p.id } })).toBe(1);
    expect(await db().ledgerTransaction.count({ where: { userId: p.id } })).toBeGreaterThan(0);
    const audit = await db().auditEvent.findFirstOrThrow({ where: { action: "account.close", target: `user:${p.id}` } });
    expect(audit.details).toMatchObject({ refundedTickets: 2, bonusForfeited: "100", sessionsEnded: 2, identitiesRemoved: 1 });
    // The address is free for a new account.
    await expect(db().user.create({ data: { email: p.email } })).resolves.toMatchObject({ email: p.email });
  });

  it("clears the account's mail tokens and keeps no address in its unsent mail", async () => {
    const p = await createTestUser();
    await db().user.update({ where: { id: p.id }, data: { emailVerifiedAt: null } });
    await sendVerification(p.id);
    await requestPasswordReset(p.email, { ip: "203.0.113.9" });
    await db().emailOutbox.create({
      data: { idempotencyKey: `sent:${p.id}`, kind: "password_changed", userId: p.id, toAddress: p.email, status: "sent", sentAt: new Date() },
    });
    expect(await db().emailToken.count({ where: { userId: p.id } })).toBe(2);

    expect((await close(await sessionCookie(p.id))).status).toBe(302);

    expect(await db().emailToken.count({ where: { userId: p.id } })).toBe(0);
    const unsent = await db().emailOutbox.findMany({ where: { userId: p.id, status: { not: "sent" } } });
    expect(unsent).toHaveLength(2);
    for (const row of unsent)
      expect(row).toMatchObject({ toAddress: `closed-${p.id}@closed.invalid`, data: {}, status: "failed", lastError: "account closed" });
    // What was sent stays as it was sent (the record of a message support may be asked about).
    expect(await db().emailOutbox.count({ where: { userId: p.id, status: "sent", toAddress: p.email } })).toBe(1);
  });

  it("removes the account's second factor and its recovery codes", async () => {
    const p = await createTestUser();
    await withTotpFactor(p.id);
    await db().recoveryCode.create({ data: { userId: p.id, codeHash: hashRecoveryCode(newRecoveryCode()) } });

    expect((await close(await sessionCookie(p.id))).status).toBe(302);

    expect(await db().totpFactor.count({ where: { userId: p.id } })).toBe(0);
    expect(await db().recoveryCode.count({ where: { userId: p.id } })).toBe(0);
  });

  it("leaves the ledger balanced and nothing in the pot when entries race the closure", async () => {
    for (let round = 0; round < 3; round++) {
      const p = await createTestUser({ coins: 100n });
      const other = await createTestUser({ coins: 100n });
      const raffles = [await createTestRaffle(), await createTestRaffle()];
      const cookie = await sessionCookie(p.id);
      expect((await enter(await sessionCookie(other.id), raffles[0]!.id)).status).toBe(200);
      expect((await enter(cookie, raffles[0]!.id)).status).toBe(200);
      const [closed, ...entries] = await Promise.all([close(cookie), ...raffles.flatMap((r) => [enter(cookie, r.id), enter(cookie, r.id)])]);
      expect(closed.status).toBe(302);
      for (const entry of entries) expect([200, 401]).toContain(entry.status);
      expect(await db().entry.count({ where: { userId: p.id } })).toBe(0);
      expect(await potTotal(raffles[0]!.id)).toBe(raffles[0]!.entryPrice);
      expect(await potTotal(raffles[1]!.id)).toBe(0n);
      expect(await userBalances(p.id)).toEqual({ cash: 0n, bonus: 0n });
    }
  });

  it("refuses the closure or the withdrawal when both are asked at once, never leaving cash on a closed account", async () => {
    const p = await createTestUser({ cash: 2000n });
    const cookie = await sessionCookie(p.id);
    const [closed, withdrawal] = await Promise.allSettled([
      close(cookie),
      requestWithdrawal(p.id, { amount: "20", method: "paypal", fields: { username: "me@example.com" } }),
    ]);
    expect(closed.status === "fulfilled" && closed.value.status).toBe(409);
    expect(withdrawal.status).toBe("fulfilled");
    expect(await closedAt(p.id)).toBeNull();
    expect(await db().withdrawal.count({ where: { userId: p.id, status: "pending" } })).toBe(1);
  });
});

describe("downloading one's data", () => {
  it("answers a JSON attachment with the profile, settings, history, sessions and consents", async () => {
    const p = await createTestUser({ coins: 100n });
    const raffle = await createTestRaffle();
    const cookie = await sessionCookie(p.id);
    await enter(cookie, raffle.id);
    await db().passkey.create({
      data: {
        userId: p.id,
        credentialId: `cred-${p.id}`,
        publicKey: new Uint8Array([9, 9]),
        counter: 3n,
        transports: [],
        deviceType: "multiDevice",
        backedUp: true,
        name: "My phone",
      },
    });
    const response = await call("/account/export", { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="raffle-rush-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const data = (await response.json()) as ExportDocument;
    expect(data.profile).toMatchObject({ id: p.id, email: p.email, username: p.username, country: "GB" });
    expect(JSON.stringify(data)).not.toMatch(/passwordHash|tokenHash|destinationEncrypted|cardToken|publicKey|credentialId/);
    expect(data.profile.passkeys).toEqual([{ name: "My phone", deviceType: "multiDevice", backedUp: true, createdAt: expect.any(String), lastUsedAt: null }]);
    expect(data.consents.termsAcceptedAt).toEqual(expect.any(String));
    expect(data.settings).toHaveProperty("depositLimits");
    expect(data.balances).toEqual({ user: "0", user_bonus: "95" });
    expect(data.history.entries).toHaveLength(1);
    expect(data.history.ledger.map((t) => t.kind)).toEqual(["bonus", "entry"]);
    expect(data.sessions).toHaveLength(1);
  });
});

type ExportDocument = {
  profile: Record<string, unknown>;
  consents: { termsAcceptedAt: unknown };
  settings: Record<string, unknown>;
  balances: Record<string, string>;
  history: { entries: unknown[]; ledger: { kind: string }[] };
  sessions: unknown[];
};

async function promotions(): Promise<bigint> {
  const account = await db().ledgerAccount.findFirstOrThrow({ where: { kind: "promotions", userId: null }, select: { balance: true } });
  return account.balance;
}

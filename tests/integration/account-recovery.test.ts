import { createHash } from "node:crypto";
import type { ParsedMail } from "mailparser";
import { describe, expect, it, vi } from "vitest";
import { db } from "~/models/db.server";
import { userBalance } from "~/models/money/ledger.server";
import { signIn } from "~/services/accounts/sign-up.server";
import { verifyEmailByToken } from "~/services/accounts/email-tokens.server";
import { EXPIRED_LINK } from "~/shared/recovery";
import { deliverDueMail } from "~/infra/mail/outbox.server";
import { hashPassword } from "~/services/accounts/password.server";
import { requestWithdrawal, WithdrawalRefused } from "~/services/money/withdrawals.server";
import { call, pageText, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";
import { fieldError, formAlerts } from "../support/field-error";
import { setUpSmtp } from "../support/smtp";

/**
 * "Forgot password?" and email verification (ADR 032): single-use tokens stored hashed,
 * a 30-minute reset link, the same answer whether or not the address has an account,
 * limits per address and per client, and no first withdrawal before the address is verified.
 */
const smtp = setUpSmtp();
const OLD = "an old password of mine";
const NEW = "a brand new password";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

async function drain() {
  while ((await deliverDueMail()) > 0);
}

async function playerWithPassword({ emailVerified = true, cash = 0n } = {}) {
  const user = await createTestUser({ emailVerified, cash });
  await db().user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(OLD) } });
  return user;
}

function lastMailTo(email: string): ParsedMail {
  const all = smtp.to(email);
  expect(all.length, `mail to ${email}`).toBeGreaterThan(0);
  return all.at(-1)!;
}

const resetLink = (mail: ParsedMail) => /http:\/\/localhost:\d+(\/reset-password\/([\w-]{43}))/.exec(mail.text ?? "")!;

const askReset = (email: string, ip = "198.51.100.7") => call("/forgot-password", { method: "POST", form: { email }, ip });

describe("forgot password", () => {
  it("answers the same whether or not an account uses the address, and does the same work", async () => {
    const player = await playerWithPassword();
    const unknown = `nobody-${player.id.slice(0, 8)}@test.local`;
    // Both pages at one instant: the root data's clock is the same in both.
    vi.useFakeTimers({ toFake: ["Date"] });
    const [known, stranger] = await (async () => {
      try {
        const answers = [await askReset(player.email.toUpperCase()), await askReset(unknown)] as const;
        return [
          { status: answers[0].status, text: await answers[0].text() },
          { status: answers[1].status, text: await answers[1].text() },
        ];
      } finally {
        vi.useRealTimers();
      }
    })();
    expect(known.status).toBe(200);
    expect(stranger.status).toBe(200);
    // The page differs only by the address it echoes.
    expect(known.text.replaceAll(player.email, "ADDRESS")).toBe(stranger.text.replaceAll(unknown, "ADDRESS"));
    // One message each: a link for the account, a note that no account uses the other address.
    const rows = await db().emailOutbox.findMany({ where: { toAddress: { in: [player.email, unknown] } }, select: { kind: true, toAddress: true } });
    expect(rows.map((r) => r.kind).sort()).toEqual(["password_reset", "password_reset_unknown"]);
    await drain();
    expect(lastMailTo(unknown).text).toContain("no account uses it");
    expect(resetLink(lastMailTo(player.email))).toBeTruthy();
  });

  it("takes about as long for an unknown address as for a known one", async () => {
    const players = await Promise.all(Array.from({ length: 12 }, () => playerWithPassword()));
    const timeOf = async (email: string, ip: string) => {
      const started = performance.now();
      expect((await askReset(email, ip)).status).toBe(200);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (const [i, p] of players.entries()) {
      known.push(await timeOf(p.email, `203.0.113.${i}`));
      unknown.push(await timeOf(`ghost-${i}-${p.id.slice(0, 6)}@test.local`, `203.0.113.${100 + i}`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // The work differs by one small insert: the medians are within noise of each other.
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(Math.max(15, median(known) * 0.5));
  });

  it("keeps only the token's hash, sets the new password once, ends every session and says so by mail", async () => {
    const player = await playerWithPassword();
    const cookie = await sessionCookie(player.id);
    expect((await call("/api/auth/user", { cookie })).status).toBe(200);
    await askReset(player.email);
    await drain();
    const [, path, token] = resetLink(lastMailTo(player.email));
    // At rest: the hash, never the token.
    const stored = await db().emailToken.findMany({ where: { userId: player.id } });
    expect(stored).toMatchObject([{ purpose: "password_reset", tokenHash: sha256(token!), usedAt: null }]);
    expect(JSON.stringify(stored)).not.toContain(token);
    // The outbox kept it only until the message was sent.
    const outbox = await db().emailOutbox.findFirstOrThrow({ where: { userId: player.id, kind: "password_reset" } });
    expect(outbox).toMatchObject({ status: "sent", data: { minutes: 30 } });
    expect(JSON.stringify(outbox.data)).not.toContain(token);

    expect(await pageText(await call(path!))).toContain("Choose a new password");
    // A mismatch or a short password keeps the link usable.
    expect((await call(path!, { method: "POST", form: { password: NEW, confirm: "something else" } })).status).toBe(400);
    expect((await call(path!, { method: "POST", form: { password: "short", confirm: "short" } })).status).toBe(400);
    const done = await call(path!, { method: "POST", form: { password: NEW, confirm: NEW } });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/api/login");

    // Every session ended; the old password no longer works, the new one does.
    expect((await call("/api/auth/user", { cookie })).status).toBe(401);
    expect(await db().session.count({ where: { userId: player.id } })).toBe(0);
    await expect(signIn({ email: player.email, password: OLD }, { ip: "192.0.2.50" })).rejects.toThrow("Invalid email or password.");
    expect(await signIn({ email: player.email, password: NEW }, { ip: "192.0.2.50" })).toBe(player.id);

    // Single use: the same link again changes nothing.
    const again = await call(path!, { method: "POST", form: { password: "yet another password", confirm: "yet another password" } });
    expect(again.status).toBe(400);
    expect(await pageText(again)).toContain("This link has expired or was already used.");
    expect(await pageText(await call(path!))).toContain("Link expired");
    await drain();
    expect(lastMailTo(player.email).subject).toBe("Your password was changed");
  });

  it("refuses a link older than 30 minutes, and ends the older links when one is used", async () => {
    const player = await playerWithPassword();
    await askReset(player.email);
    await askReset(player.email);
    await drain();
    const [first, second] = smtp
      .to(player.email)
      .slice(-2)
      .map((m) => resetLink(m)[1]!);
    // The first link expires.
    await db().emailToken.updateMany({
      where: { userId: player.id, tokenHash: sha256(first!.split("/").at(-1)!) },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    expect((await call(first!, { method: "POST", form: { password: NEW, confirm: NEW } })).status).toBe(400);
    const issued = await db().emailToken.findMany({ where: { userId: player.id }, select: { createdAt: true, expiresAt: true } });
    for (const t of issued.filter((t) => t.expiresAt.getTime() > Date.now()))
      expect(t.expiresAt.getTime() - t.createdAt.getTime()).toBeLessThanOrEqual(30 * 60_000 + 1000);
    expect((await call(second!, { method: "POST", form: { password: NEW, confirm: NEW } })).status).toBe(302);
    expect(await db().emailToken.count({ where: { userId: player.id, usedAt: null } })).toBe(0);
  });

  it("is limited per address (known or not) and per client, counted before any work", async () => {
    const player = await playerWithPassword();
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await askReset(player.email, `192.0.2.${i + 1}`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const ghost = `ghost-limit-${player.id.slice(0, 6)}@test.local`;
    const ghostStatuses = [];
    for (let i = 0; i < 7; i++) ghostStatuses.push((await askReset(ghost, `192.0.2.${i + 20}`)).status);
    expect(ghostStatuses).toEqual(statuses);
    expect(await db().emailOutbox.count({ where: { toAddress: { in: [player.email, ghost] } } })).toBe(10);
    // One client asking for many addresses.
    const fromOne = [];
    for (let i = 0; i < 31; i++) fromOne.push((await askReset(`many-${i}-${player.id.slice(0, 6)}@test.local`, "192.0.2.200")).status);
    expect(fromOne.filter((s) => s === 429)).toHaveLength(1);
  });
});

describe("email verification", () => {
  it("sign-up sends a link and a code; no first withdrawal until the address is verified", async () => {
    const email = `verify-${Date.now().toString(36)}@test.local`;
    const signUp = await call("/api/login", {
      method: "POST",
      ip: "192.0.2.99",
      form: { intent: "signup", email, password: "correct horse battery staple", dateOfBirth: "1990-01-01", country: "GB", acceptTerms: "on" },
    });
    expect(signUp.status).toBe(302);
    const user = await db().user.findUniqueOrThrow({ where: { email }, select: { id: true, emailVerifiedAt: true } });
    expect(user.emailVerifiedAt).toBeNull();
    await drain();
    const mail = lastMailTo(email);
    expect(mail.subject).toBe("Verify your email");
    const token = /\/verify-email\?token=([\w-]{43})/.exec(mail.text ?? "")![1]!;
    expect(await db().emailToken.count({ where: { userId: user.id, purpose: "verify_email", tokenHash: sha256(token) } })).toBe(1);

    // The link's page asks to confirm (a GET verifies nothing); its form does.
    expect(await pageText(await call(`/verify-email?token=${token}`))).toContain("Verify my email");
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).emailVerifiedAt).toBeNull();
    const verified = await call("/verify-email", { method: "POST", form: { intent: "link", token } });
    expect(verified.status).toBe(302);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).emailVerifiedAt).not.toBeNull();
    // Used once: the link's page says so (400), for a visitor who is not signed in too.
    const again = await call(`/verify-email?token=${token}`, { method: "POST", form: { intent: "link", token } });
    expect(again.status).toBe(400);
    expect(formAlerts(await pageText(again))).toEqual([EXPIRED_LINK]);
    // Used once.
    await expect(verifyEmailByToken(token)).rejects.toThrow("This link has expired or was already used.");
  });

  it("refuses a withdrawal before verification (nothing held), offers the code and resend on the withdraw page", async () => {
    const player = await playerWithPassword({ emailVerified: false, cash: 5000n });
    const cookie = await sessionCookie(player.id);
    const refused = requestWithdrawal(player.id, { amount: "20", method: "venmo", fields: { username: "lucky-lou" } });
    await expect(refused).rejects.toBeInstanceOf(WithdrawalRefused);
    await expect(refused).rejects.toThrow("Please verify your email address before your first withdrawal");
    const api = await call("/api/withdraw", { method: "POST", cookie, json: { amount: 20, method: "venmo", accountInfo: "lucky-lou" } });
    expect(api.status).toBe(422);
    expect(await api.json()).toMatchObject({ title: "Verify Your Email" });
    expect(await userBalance(player.id)).toBe(5000n);
    expect(await db().withdrawal.count({ where: { userId: player.id } })).toBe(0);

    const page = await pageText(await call("/withdraw", { cookie }));
    expect(page).toContain("Verify your email before your first withdrawal");
    expect(page).toContain(player.email);

    // Resend: a new code replaces the old one.
    expect((await call("/verify-email", { method: "POST", cookie, form: { intent: "resend" } })).status).toBe(302);
    await drain();
    const code = /Your code: (\d{6})/.exec(lastMailTo(player.email).text ?? "")![1]!;
    const wrong = code === "000000" ? "111111" : "000000";
    // A wrong code: 400 and the panel again, the message beside the field (without JavaScript this is the page shown).
    const wrongCode = await call("/verify-email", { method: "POST", cookie, form: { intent: "code", code: wrong } });
    expect(wrongCode.status).toBe(400);
    const refusedPage = await pageText(wrongCode);
    expect(refusedPage).toContain("Verify your email before your first withdrawal");
    expect(fieldError(refusedPage, "verify-email-code-code")).toBe(
      "That code is not right, or it has expired. Check the latest message we sent, or send a new one.",
    );
    expect((await db().user.findUniqueOrThrow({ where: { id: player.id } })).emailVerifiedAt).toBeNull();
    const overlong = await call("/verify-email", { method: "POST", cookie, form: { intent: "code", code: "1".repeat(21) } });
    expect(overlong.status).toBe(400);
    expect(fieldError(await pageText(overlong), "verify-email-code-code")).toBe("That code is too long.");
    // Hashed at rest: the code is nowhere in the tokens table.
    expect(JSON.stringify(await db().emailToken.findMany({ where: { userId: player.id } }))).not.toContain(code);
    await call("/verify-email", { method: "POST", cookie, form: { intent: "code", code } });
    expect((await db().user.findUniqueOrThrow({ where: { id: player.id } })).emailVerifiedAt).not.toBeNull();
    expect(await pageText(await call("/withdraw", { cookie }))).not.toContain("Verify your email before your first withdrawal");
    await requestWithdrawal(player.id, { amount: "20", method: "venmo", fields: { username: "lucky-lou" } });
    expect(await userBalance(player.id)).toBe(3000n);
  });

  it("limits guesses at the code per account", async () => {
    const player = await playerWithPassword({ emailVerified: false });
    const cookie = await sessionCookie(player.id);
    const codes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => call("/verify-email", { method: "POST", cookie, form: { intent: "code", code: String(100000 + i) } })),
    );
    expect(codes.map((r) => r.status).sort()).toEqual([...Array<number>(10).fill(400), 429, 429]);
    const limited = codes.find((r) => r.status === 429)!;
    expect(limited.headers.get("Retry-After")).toBeTruthy();
    expect(formAlerts(await pageText(limited))).toHaveLength(1);
    expect(await db().rateLimitBucket.findMany({ where: { key: `verify-code:account:${player.id}` }, select: { count: true } })).toEqual([{ count: 10 }]);
  });
});

import { createHash, randomBytes, randomInt, randomUUID } from "node:crypto";
import { recordAudit } from "~/models/back-office/audit-event.server";
import { db } from "~/models/db.server";
import * as tokens from "~/models/accounts/email-token.server";
import { DomainError } from "~/shared/domain-error";
import { getEnv } from "~/infra/env.server";
import { queueMail, queueMailToAddress } from "~/infra/mail/outbox.server";
import { passwordProblem } from "~/shared/password-policy";
import { hashPassword } from "./password.server";
import * as readModel from "~/infra/read-model.server";
import { EXPIRED_LINK, RESET_TOKEN_MINUTES, VERIFY_TOKEN_HOURS } from "~/shared/recovery";
import { consume, LIMITS } from "../system/rate-limit.server";

/**
 * Password resets and email verification (docs/decisions/032-email-outbox-and-recovery.md).
 * Tokens are 32 random bytes sent only by mail; the database keeps their SHA-256. Each
 * is used once, by one UPDATE that checks it is unused and unexpired.
 */

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const newToken = () => randomBytes(32).toString("base64url");
/** Tokens arrive in URLs: anything but a 43-character base64url string is no token of ours. */
const tokenHashOf = (token: string) => (/^[\w-]{43}$/.test(token) ? sha256(token) : sha256(`invalid:${token}`));

/**
 * Asks for a reset link. The answer is the same whether or not an account uses the
 * address, and so is the work: the limits are counted, a token is made and hashed, and
 * one message is written to the outbox in one transaction (a reset link, or a note that
 * no account uses the address). Limited per address and per client (ADR 022: counted first).
 */
export async function requestPasswordReset(email: string, { ip, now = new Date() }: { ip: string; now?: Date }): Promise<void> {
  const address = email.trim().toLowerCase();
  await consume(LIMITS.passwordResetPerIp, ip, now);
  await consume(LIMITS.passwordResetPerAddress, address, now);
  const account = await tokens.accountByEmail(address);
  const token = newToken();
  const id = randomUUID();
  const tokenHash = sha256(token);
  await db().$transaction(async (tx) => {
    if (!account) {
      await queueMailToAddress(tx, { key: `password-reset-unknown:${id}`, kind: "password_reset_unknown", to: address, data: {} });
      await recordAudit(tx, { actor: "anonymous", action: "account.password_reset_requested", details: { ip, account: false } });
      return;
    }
    await tokens.insertToken(tx, {
      id,
      userId: account.id,
      purpose: "password_reset",
      tokenHash,
      email: account.email,
      expiresAt: new Date(now.getTime() + RESET_TOKEN_MINUTES * 60_000),
    });
    await queueMail(tx, { key: `password-reset:${id}`, kind: "password_reset", userId: account.id, data: { token, minutes: RESET_TOKEN_MINUTES } });
    await recordAudit(tx, { actor: "anonymous", action: "account.password_reset_requested", target: `user:${account.id}`, details: { ip, account: true } });
  });
}

/** Whether a reset link is still good (the page shows its form, or says it has expired). */
export async function resetTokenIsLive(token: string, now = new Date()): Promise<boolean> {
  return (await tokens.findLiveToken(tokenHashOf(token), "password_reset", now)) !== null;
}

export class TokenRefused extends DomainError {
  constructor(message: string) {
    super("invalid_input", message);
  }
}

/**
 * Sets a new password with a reset link: the token is used (once), every other reset
 * link ends, every session of the account ends, and "password changed" is written to
 * the outbox, all in one transaction. A bad password keeps the token for another try.
 */
export async function resetPassword(token: string, password: string, now = new Date()): Promise<string> {
  const problem = passwordProblem(password);
  if (problem) throw new DomainError("invalid_input", problem);
  const passwordHash = await hashPassword(password);
  const userId = await db().$transaction(async (tx) => {
    const used = await tokens.useToken(tx, tokenHashOf(token), "password_reset", now);
    if (!used) return undefined;
    await tokens.setPasswordHash(tx, used.userId, passwordHash);
    await tokens.retireTokens(tx, used.userId, "password_reset", now);
    await tokens.deleteSessionsOf(tx, used.userId);
    await queueMail(tx, { key: `password-changed:${sha256(token)}`, kind: "password_changed", userId: used.userId, data: { support: getEnv().SUPPORT_EMAIL } });
    await recordAudit(tx, { actor: used.userId, action: "account.password_reset", target: `user:${used.userId}` });
    return used.userId;
  });
  if (!userId) throw new TokenRefused(EXPIRED_LINK);
  readModel.forgetPlayer(userId);
  return userId;
}

/**
 * Sends a verification message (a link and a 6-digit code) to the account's address,
 * ending earlier ones. Called at sign-up and by "resend" (limited per account).
 */
export async function sendVerification(userId: string, { now = new Date(), resend = false } = {}): Promise<void> {
  if (resend) await consume(LIMITS.verificationMailPerAccount, userId, now);
  const { email, emailVerifiedAt } = await tokens.emailStateOf(userId);
  if (emailVerifiedAt) return;
  const id = randomUUID();
  const token = newToken();
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  await db().$transaction(async (tx) => {
    await tokens.retireTokens(tx, userId, "verify_email", now);
    await tokens.insertToken(tx, {
      id,
      userId,
      purpose: "verify_email",
      tokenHash: sha256(token),
      codeHash: sha256(`${id}:${code}`),
      email,
      expiresAt: new Date(now.getTime() + VERIFY_TOKEN_HOURS * 3_600_000),
    });
    await queueMail(tx, { key: `verify-email:${id}`, kind: "verify_email", userId, data: { token, code, hours: VERIFY_TOKEN_HOURS }, to: email });
  });
}

/** Verifies with the link's token; the account it verified. */
export async function verifyEmailByToken(token: string, now = new Date()): Promise<string> {
  const userId = await db().$transaction(async (tx) => {
    const used = await tokens.useToken(tx, tokenHashOf(token), "verify_email", now);
    if (!used) return undefined;
    await tokens.markEmailVerified(tx, used.userId, used.email, now);
    await recordAudit(tx, { actor: used.userId, action: "account.email_verified", target: `user:${used.userId}`, details: { by: "link" } });
    return used.userId;
  });
  if (!userId) throw new TokenRefused(EXPIRED_LINK);
  return userId;
}

/** Verifies with the 6-digit code; guesses are limited per account (counted first). */
export async function verifyEmailByCode(userId: string, code: string, now = new Date()): Promise<void> {
  await consume(LIMITS.verificationCodePerAccount, userId, now);
  const ok = await db().$transaction(async (tx) => {
    const used = /^\d{6}$/.test(code) ? await tokens.useVerificationCode(tx, userId, code, now) : undefined;
    if (!used) return false;
    await tokens.markEmailVerified(tx, userId, used.email, now);
    await recordAudit(tx, { actor: userId, action: "account.email_verified", target: `user:${userId}`, details: { by: "code" } });
    return true;
  });
  if (!ok) throw new TokenRefused("That code is not right, or it has expired. Check the latest message we sent, or send a new one.");
}

/** Whether the player's address is verified (the withdraw page asks). */
export async function emailVerification(userId: string) {
  const { email, emailVerifiedAt } = await tokens.emailStateOf(userId);
  return { email, verified: emailVerifiedAt !== null };
}

/** Before a first withdrawal the address must be verified (checked by requestWithdrawal). */
export async function isEmailVerified(userId: string): Promise<boolean> {
  return (await tokens.emailStateOf(userId)).emailVerifiedAt !== null;
}

import { createHash, randomBytes, randomInt, randomUUID } from "node:crypto";
import { recordAudit } from "~/models/back-office/audit-event.server";
import { db, type Tx } from "~/models/db.server";
import * as tokens from "~/models/accounts/email-token.server";
import { DomainError } from "~/shared/domain-error";
import { AccountError } from "./sign-up.server";
import { TokenRefused } from "./email-tokens.server";
import { getEnv } from "~/infra/env.server";
import { queueMail } from "~/infra/mail/outbox.server";
import { verifyPassword } from "./password.server";
import * as readModel from "~/infra/read-model.server";
import { consume, LIMITS } from "../system/rate-limit.server";
import { EXPIRED_LINK, VERIFY_TOKEN_HOURS } from "~/shared/recovery";

/**
 * Changing an account's email (docs/decisions/037-passkeys-and-email-change.md). The
 * player asks with their password; a link and a 6-digit code go to the new address (the
 * verification flow of ADR 032, purpose change_email); the account keeps its old address
 * until the new one is proved, then moves to it, verified, and the old address is told.
 */

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const tokenHashOf = (token: string) => (/^[\w-]{43}$/.test(token) ? sha256(token) : sha256(`invalid:${token}`));

export const WRONG_PASSWORD = "That password is not right.";

/** Asks to move the account to `newEmail`: limited per account (counted first), checked by the password; a refusal names its field (AccountError). */
export async function requestEmailChange(userId: string, input: { newEmail: string; password: string }, now = new Date()): Promise<string> {
  await consume(LIMITS.emailChangePerAccount, userId, now);
  const address = input.newEmail.trim().toLowerCase();
  const account = await tokens.emailAndPasswordOf(userId);
  if (!account.passwordHash || account.closedAt) {
    throw new AccountError("password", "Your account has no password: it signs in through your provider, whose address it uses.");
  }
  if (!(await verifyPassword(input.password, account.passwordHash))) throw new AccountError("password", WRONG_PASSWORD);
  if (address === account.email) throw new AccountError("newEmail", "That is already your email address.");
  if (await tokens.accountByEmail(address)) throw new AccountError("newEmail", "Another account uses that email address.");
  const id = randomUUID();
  const token = randomBytes(32).toString("base64url");
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  await db().$transaction(async (tx) => {
    await tokens.retireTokens(tx, userId, "change_email", now);
    await tokens.insertToken(tx, {
      id,
      userId,
      purpose: "change_email",
      tokenHash: sha256(token),
      codeHash: sha256(`${id}:${code}`),
      email: address,
      expiresAt: new Date(now.getTime() + VERIFY_TOKEN_HOURS * 3_600_000),
    });
    await queueMail(tx, {
      key: `confirm-email-change:${id}`,
      kind: "confirm_email_change",
      userId,
      to: address,
      data: { token, code, hours: VERIFY_TOKEN_HOURS },
    });
    await recordAudit(tx, { actor: userId, action: "account.email_change_requested", target: `user:${userId}` });
  });
  return address;
}

/** The new address a change waits on (the settings page shows it and asks for the code). */
export function pendingEmailChange(userId: string, now = new Date()): Promise<string | undefined> {
  return tokens.pendingEmailChange(userId, now);
}

const TAKEN = "Another account uses that email address now. Your address was not changed.";

/**
 * Uses the token (link or code) and moves the account to the address it was sent to, in
 * one transaction that also ends the account's other live tokens (a reset link sent to the
 * old address must not work any more) and writes "your email was changed" to the old address.
 */
async function applyChange(use: (tx: Tx) => Promise<{ userId: string; email: string } | undefined>, by: string, now: Date) {
  const outcome = await db()
    .$transaction(async (tx) => {
      const used = await use(tx);
      if (!used) return undefined;
      const old = await tokens.moveToAddress(tx, used.userId, used.email, now);
      if (!old) throw new DomainError("invalid_input", TAKEN);
      for (const purpose of ["password_reset", "verify_email", "change_email"] as const) await tokens.retireTokens(tx, used.userId, purpose, now);
      await queueMail(tx, {
        key: `email-changed:${used.userId}:${now.getTime()}`,
        kind: "email_changed",
        userId: used.userId,
        to: old,
        data: { newEmail: used.email, support: getEnv().SUPPORT_EMAIL },
      });
      await recordAudit(tx, { actor: used.userId, action: "account.email_changed", target: `user:${used.userId}`, details: { by } });
      return used.userId;
    })
    .catch((error: unknown) => {
      // Another account signed up with the address between the check and the update.
      if (error instanceof Error && /23505|Unique constraint/.test(error.message)) throw new DomainError("invalid_input", TAKEN);
      throw error;
    });
  if (!outcome) return undefined;
  readModel.forgetPlayer(outcome);
  return outcome;
}

/** Confirms with the link's token (no session needed: the token proves the new address). */
export async function confirmEmailChangeByToken(token: string, now = new Date()): Promise<string> {
  const userId = await applyChange((tx) => tokens.useToken(tx, tokenHashOf(token), "change_email", now), "link", now);
  if (!userId) throw new TokenRefused(EXPIRED_LINK);
  return userId;
}

/** Confirms with the 6-digit code; guesses share the verification code's limit per account. */
export async function confirmEmailChangeByCode(userId: string, code: string, now = new Date()): Promise<void> {
  await consume(LIMITS.verificationCodePerAccount, userId, now);
  const done = await applyChange(
    async (tx) => {
      const used = /^\d{6}$/.test(code) ? await tokens.useVerificationCode(tx, userId, code, now, "change_email") : undefined;
      return used ? { userId, email: used.email } : undefined;
    },
    "code",
    now,
  );
  if (!done) throw new TokenRefused("That code is not right, or it has expired. Check the latest message we sent to your new address, or ask again.");
}

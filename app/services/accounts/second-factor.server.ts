import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";
import { recordAudit } from "~/models/back-office/audit-event.server";
import { db } from "~/models/db.server";
import * as factors from "~/models/accounts/totp-factor.server";
import { decrypt, encrypt } from "~/infra/crypto-box.server";
import { hashRecoveryCode, looksLikeRecoveryCode, newRecoveryCode, RECOVERY_CODE_COUNT } from "~/services/accounts/recovery-codes.server";

/**
 * TOTP second factors (RFC 6238 through otplib: SHA-1, 6 digits, 30 s) and recovery codes
 *. A code is accepted for the time step before, at or after now (clock drift),
 * and only for a step later than the last one accepted: the compare-and-set in
 * `acceptStep` makes a code single-use even under parallel requests.
 */
export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = "Raffle Rush";

export type Enrolment = { secret: string; uri: string; qrCode: string };

async function enrolmentView(secret: string, label: string): Promise<Enrolment> {
  const uri = generateURI({ issuer: ISSUER, label, secret });
  // An SVG drawn on the server, as a data URL: the page needs no script to show it.
  const svg = await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { secret, uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}

/** A new secret waiting for its first code; null when the account already has a factor. */
export async function beginEnrolment(userId: string, label: string): Promise<Enrolment | null> {
  const secret = generateSecret();
  if (!(await factors.startTotpEnrolment(userId, encrypt(secret, "totp")))) return null;
  return enrolmentView(secret, label);
}

/** The enrolment begun and not yet confirmed, shown again (after a wrong code, or a reload). */
export async function pendingEnrolment(userId: string, label: string): Promise<Enrolment | null> {
  const factor = await factors.findTotpFactor(userId);
  if (!factor || factor.confirmedAt) return null;
  return enrolmentView(decrypt(factor.secretSealed, "totp"), label);
}

export const hasSecondFactor = factors.hasConfirmedTotp;
export const recoveryCodesLeft = factors.unusedRecoveryCodes;

/** The time step whose code `code` is, within one step of `now`; null for any other code. */
async function stepOf(secret: string, code: string, now: Date): Promise<bigint | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({ secret, token: code, epoch: Math.floor(now.getTime() / 1000), epochTolerance: TOTP_PERIOD_SECONDS });
  // verify's result type also covers HOTP's; for TOTP a valid result names its time step.
  return result.valid && "timeStep" in result ? BigInt(result.timeStep) : null;
}

const typedCode = (typed: string) => typed.replace(/\s/g, "");

/**
 * Confirms a pending enrolment with the app's first code: the factor is on and its ten
 * recovery codes are returned, to be shown once (only their hashes are kept). Null: wrong
 * code, or nothing pending. The caller counts the attempt against a rate limit first.
 */
export async function confirmEnrolment(userId: string, typed: string, now = new Date()): Promise<string[] | null> {
  const factor = await factors.findTotpFactor(userId);
  if (!factor || factor.confirmedAt) return null;
  const step = await stepOf(decrypt(factor.secretSealed, "totp"), typedCode(typed), now);
  if (step === null) return null;
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  if (!(await factors.acceptStep(userId, step, now, { codeHashes: codes.map(hashRecoveryCode) }))) return null;
  await audit(userId, "second_factor.enrolled", {});
  return codes;
}

export type SecondFactorCheck = { ok: true; method: "totp" | "recovery_code" } | { ok: false; reason: "no_factor" | "wrong_code" | "replayed" };

/**
 * Checks a TOTP code or a recovery code against the user's confirmed factor and spends
 * what it accepts: the code's time step, or the recovery code (audited). The caller counts
 * the attempt against a rate limit first and audits the outcome under its own name.
 */
export async function checkSecondFactor(userId: string, typed: string, now = new Date()): Promise<SecondFactorCheck> {
  const factor = await factors.findTotpFactor(userId);
  if (!factor?.confirmedAt) return { ok: false, reason: "no_factor" };
  if (looksLikeRecoveryCode(typed)) {
    if (!(await factors.useRecoveryCode(userId, hashRecoveryCode(typed), now))) return { ok: false, reason: "wrong_code" };
    await audit(userId, "second_factor.recovery_code_used", { left: await factors.unusedRecoveryCodes(userId) });
    return { ok: true, method: "recovery_code" };
  }
  const step = await stepOf(decrypt(factor.secretSealed, "totp"), typedCode(typed), now);
  if (step === null) return { ok: false, reason: "wrong_code" };
  if (!(await factors.acceptStep(userId, step, now))) return { ok: false, reason: "replayed" };
  return { ok: true, method: "totp" };
}

/** Turns the factor off: only with a current code (or a recovery code). */
export async function removeSecondFactor(userId: string, typed: string, now = new Date()): Promise<SecondFactorCheck> {
  const check = await checkSecondFactor(userId, typed, now);
  if (check.ok) {
    await factors.removeTotpFactor(userId);
    await audit(userId, "second_factor.removed", { method: check.method });
  }
  return check;
}

/** The demo admin's factor, with the secret the README prints (demo mode only). */
export async function seedDemoFactor(userId: string, secret: string, now = new Date()): Promise<void> {
  await factors.seedConfirmedTotp(userId, encrypt(secret, "totp"), now);
}

async function audit(userId: string, action: string, details: Record<string, number | string>) {
  await db().$transaction((tx) => recordAudit(tx, { actor: userId, action, target: `user:${userId}`, details }));
}

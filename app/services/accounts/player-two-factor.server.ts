import { consume, giveBack, LIMITS } from "../system/rate-limit.server";
import { confirmEnrolment, removeSecondFactor, type SecondFactorCheck } from "./second-factor.server";

/**
 * A player's own second factor, from settings: turned on by scanning the QR code
 * and confirming a first code, turned off with a current code (or a recovery code). Every
 * code is counted per account before it is checked; a right one gives its hit back.
 */
export async function turnOnTwoFactor(userId: string, code: string, now = new Date()): Promise<string[] | null> {
  const hit = await consume(LIMITS.secondFactorPerAccount, userId, now);
  const codes = await confirmEnrolment(userId, code, now);
  if (codes) await giveBack(hit);
  return codes;
}

/** An admin's factor is the back office's gate: it is not turned off from settings. */
export async function turnOffTwoFactor(
  user: { id: string; isAdmin: boolean },
  code: string,
  now = new Date(),
): Promise<SecondFactorCheck | { ok: false; reason: "admin" }> {
  if (user.isAdmin) return { ok: false, reason: "admin" };
  const hit = await consume(LIMITS.secondFactorPerAccount, user.id, now);
  const check = await removeSecondFactor(user.id, code, now);
  if (check.ok) await giveBack(hit);
  return check;
}

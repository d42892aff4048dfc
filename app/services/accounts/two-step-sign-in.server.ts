import { recordAudit } from "~/models/back-office/audit-event.server";
import { db } from "~/models/db.server";
import { consume, giveBack, LIMITS } from "../system/rate-limit.server";
import { hasPlayerTotp } from "~/models/accounts/totp-factor.server";
import { checkSecondFactor } from "./second-factor.server";

/**
 * Sign-in's second step for a player with a TOTP factor: the right password
 * starts no session; a code (or a recovery code) at /login/two-factor finishes the sign-in.
 * The cookie that waits for it is app/web/pending-sign-in.server.ts.
 */

/**
 * A player with a factor. An admin's factor is asked at the admin gate instead (at the
 * first visit to the back office and every 30 minutes), so an admin never types two codes
 * in a row, which the one-use-per-step rule would make them wait 30 s for.
 */
export const needsSecondStep = hasPlayerTotp;

/** Checks the second step's code; counted per account before the check (the right code gives its hit back), audited either way. */
export async function finishSignIn(userId: string, code: string, now = new Date()): Promise<boolean> {
  const hit = await consume(LIMITS.secondFactorPerAccount, userId, now);
  const check = await checkSecondFactor(userId, code, now);
  if (check.ok) await giveBack(hit);
  await db().$transaction((tx) =>
    recordAudit(tx, {
      actor: userId,
      action: check.ok ? "account.sign_in_second_factor" : "account.sign_in_second_factor_failed",
      target: `user:${userId}`,
      details: check.ok ? { method: check.method } : { reason: check.reason },
    }),
  );
  return check.ok;
}

import { createCookie } from "@remix-run/node";
import { recordAudit } from "~/models/back-office/audit-event.server";
import { db } from "~/models/db.server";
import { getEnv } from "~/infra/env.server";
import { consume, giveBack, LIMITS } from "../system/rate-limit.server";
import { safeRedirectPath } from "~/shared/safe-redirect";
import { hasPlayerTotp } from "~/models/accounts/totp-factor.server";
import { checkSecondFactor } from "./second-factor.server";
import { sessionSecret } from "~/infra/session-secret.server";

/**
 * Sign-in's second step for a player with a TOTP factor (ADR 036): the right password
 * starts no session; it sets a signed cookie naming the account for 5 minutes and sends
 * the browser to /login/two-factor, where a code (or a recovery code) finishes the sign-in.
 */
const PENDING_SECONDS = 5 * 60;

let pendingCookie: ReturnType<typeof createCookie> | undefined;
function cookie() {
  pendingCookie ??= createCookie("__signin", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: getEnv().secureCookies,
    secrets: [sessionSecret()],
    maxAge: PENDING_SECONDS,
  });
  return pendingCookie;
}

export type PendingSignIn = { userId: string; returnTo: string };

/**
 * A player with a factor. An admin's factor is asked at the admin gate instead (at the
 * first visit to the back office and every 30 minutes), so an admin never types two codes
 * in a row, which the one-use-per-step rule would make them wait 30 s for.
 */
export const needsSecondStep = hasPlayerTotp;

export function pendingSignInCookie(userId: string, returnTo: string | undefined, now = new Date()): Promise<string> {
  return cookie().serialize({ userId, returnTo: safeRedirectPath(returnTo), until: now.getTime() + PENDING_SECONDS * 1000 });
}

/** The sign-in waiting for its code, if the cookie is ours (signed) and not older than 5 minutes. */
export async function pendingSignIn(request: Request, now = new Date()): Promise<PendingSignIn | undefined> {
  const value: unknown = await cookie().parse(request.headers.get("Cookie"));
  if (typeof value !== "object" || value === null) return undefined;
  const { userId, returnTo, until } = value as Record<string, unknown>;
  if (typeof userId !== "string" || typeof until !== "number" || until < now.getTime()) return undefined;
  return { userId, returnTo: safeRedirectPath(typeof returnTo === "string" ? returnTo : undefined) };
}

export function clearPendingSignIn(): Promise<string> {
  return cookie().serialize("", { maxAge: 0 });
}

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

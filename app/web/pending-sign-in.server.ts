import { createCookie } from "@remix-run/node";
import { getEnv } from "~/infra/env.server";
import { sessionSecret } from "~/infra/session-secret.server";
import { safeRedirectPath } from "~/shared/safe-redirect";

/**
 * Sign-in's second step: the right password of a player with a TOTP factor starts
 * no session; it sets this signed cookie naming the account for 5 minutes and sends the
 * browser to /login/two-factor, where a code finishes it (services/accounts/two-step-sign-in).
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

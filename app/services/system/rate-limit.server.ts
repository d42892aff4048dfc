import * as buckets from "~/models/system/rate-limit-bucket.server";
import { getEnv } from "~/infra/env.server";

/**
 * Rate limits kept in PostgreSQL, so every instance counts the same hits. Counts live
 * in fixed windows; a hit is judged by the sliding-window estimate (this window's
 * count plus the previous window's, weighted by how much of it still overlaps), so a
 * burst across a window boundary cannot pass twice the limit. Keys name the action
 * and who does it ("signin:ip:1.2.3.4"). A hit is counted and judged in one statement
 * before the action runs, never checked first and counted after. The windows
 * are computed here (slidingWindow) for these limits and the entry limit alike; the
 * comparison is the database function rate_limit_exceeds's alone. Kept by hand
 * rather than rate-limiter-flexible: see that ADR.
 */
export type Limit = { name: string; max: number; windowSeconds: number };

export const LIMITS = {
  signInPerAccount: { name: "signin:account", max: 10, windowSeconds: 15 * 60 },
  /** A browser where the account signed in before (its device cookie), instead of signInPerAccount. */
  signInPerDevice: { name: "signin:device", max: 10, windowSeconds: 15 * 60 },
  signInPerIp: { name: "signin:ip", max: 50, windowSeconds: 15 * 60 },
  /** The max is SIGNUP_LIMIT_PER_HOUR (see signUpLimit). */
  signUpPerIp: { name: "signup:ip", max: 20, windowSeconds: 60 * 60 },
  /** The admin gate's codes (and, before enrolment, its bootstrap key) per admin. */
  adminGatePerAccount: { name: "admin-gate:account", max: 10, windowSeconds: 15 * 60 },
  /** Codes typed to confirm an enrolment, per account. */
  secondFactorPerAccount: { name: "2fa:account", max: 10, windowSeconds: 15 * 60 },
  /** The max is ENTRY_LIMIT_PER_SECOND (see entryLimit). */
  entriesPerPlayer: { name: "enter:player", max: 10, windowSeconds: 1 },
  rewardsPerPlayer: { name: "reward:player", max: 10, windowSeconds: 60 },
  withdrawalsPerPlayer: { name: "withdraw:player", max: 5, windowSeconds: 60 },
  usernamePerPlayer: { name: "username:player", max: 20, windowSeconds: 60 * 60 },
  /** "Forgot password?" per email address (an account's, or one no account uses) and per client. */
  passwordResetPerAddress: { name: "reset:address", max: 5, windowSeconds: 60 * 60 },
  passwordResetPerIp: { name: "reset:ip", max: 30, windowSeconds: 60 * 60 },
  /** "Resend" of the verification message, and guesses at its 6-digit code, per account. */
  verificationMailPerAccount: { name: "verify-mail:account", max: 5, windowSeconds: 60 * 60 },
  verificationCodePerAccount: { name: "verify-code:account", max: 10, windowSeconds: 15 * 60 },
  /** Asking to change the email (a message to the new address each time), per account. */
  emailChangePerAccount: { name: "email-change:account", max: 5, windowSeconds: 60 * 60 },
  /** Passkey sign-in ceremonies started per client. */
  passkeySignInPerIp: { name: "passkey-signin:ip", max: 50, windowSeconds: 15 * 60 },
  /** Passkey registrations started per account. */
  passkeyRegisterPerAccount: { name: "passkey-register:account", max: 20, windowSeconds: 60 * 60 },
} as const satisfies Record<string, Limit>;

export function signUpLimit(): Limit {
  return { ...LIMITS.signUpPerIp, max: getEnv().SIGNUP_LIMIT_PER_HOUR };
}

export function entryLimit(): Limit {
  return { ...LIMITS.entriesPerPlayer, max: getEnv().ENTRY_LIMIT_PER_SECOND };
}

export class RateLimited extends Error {
  name = "RateLimited";
  constructor(readonly retryAfterSeconds: number) {
    super("Too many requests. Please wait a moment and try again.");
  }
}

/** The fixed window `now` falls in, the one before, and the sliding window's weight of that one. */
export function slidingWindow(limit: Limit, now: Date) {
  const length = limit.windowSeconds * 1000;
  const start = Math.floor(now.getTime() / length) * length;
  return {
    start: new Date(start),
    previous: new Date(start - length),
    /** How much of the previous window still lies inside the sliding window. */
    overlap: 1 - (now.getTime() - start) / length,
    retryAfter: Math.max(1, Math.ceil((start + length - now.getTime()) / 1000)),
  };
}

/** An admitted hit, which `giveBack` can take back. */
export type Hit = { key: string; windowStart: Date };

/**
 * Counts a hit before the action runs, atomically with the check: of any
 * number of concurrent hits, at most the limit is admitted. Throws RateLimited when the
 * sliding-window estimate would pass the limit; a refused hit is not counted, so the
 * stored count is exactly the actions admitted.
 */
export async function consume(limit: Limit, subject: string, now = new Date()): Promise<Hit> {
  const key = `${limit.name}:${subject}`;
  const w = slidingWindow(limit, now);
  if ((await buckets.admit(key, w, limit.max)) === null) throw new RateLimited(w.retryAfter);
  return { key, windowStart: w.start };
}

/** Takes back an admitted hit whose attempt must not count (the right password or key). */
export async function giveBack(hit: Hit): Promise<void> {
  await buckets.giveBack(hit.key, hit.windowStart);
}

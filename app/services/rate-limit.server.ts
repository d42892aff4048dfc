import * as buckets from "~/models/rate-limit.server";
import { getEnv } from "./env.server";

/**
 * Rate limits kept in PostgreSQL, so every instance counts the same hits. Counts live
 * in fixed windows; a hit is judged by the sliding-window estimate (this window's
 * count plus the previous window's, weighted by how much of it still overlaps), so a
 * burst across a window boundary cannot pass twice the limit. Keys name the action
 * and who does it ("signin:ip:1.2.3.4").
 */
export type Limit = { name: string; max: number; windowSeconds: number };

export const LIMITS = {
  signInPerAccount: { name: "signin:account", max: 10, windowSeconds: 15 * 60 },
  signInPerIp: { name: "signin:ip", max: 50, windowSeconds: 15 * 60 },
  /** The max is SIGNUP_LIMIT_PER_HOUR (see signUpLimit). */
  signUpPerIp: { name: "signup:ip", max: 20, windowSeconds: 60 * 60 },
  adminGatePerAccount: { name: "admin-gate:account", max: 10, windowSeconds: 15 * 60 },
  /** The max is ENTRY_LIMIT_PER_SECOND (see entryLimit). */
  entriesPerPlayer: { name: "enter:player", max: 10, windowSeconds: 1 },
  rewardsPerPlayer: { name: "reward:player", max: 10, windowSeconds: 60 },
  withdrawalsPerPlayer: { name: "withdraw:player", max: 5, windowSeconds: 60 },
  usernamePerPlayer: { name: "username:player", max: 20, windowSeconds: 60 * 60 },
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

async function estimate(limit: Limit, key: string, now: Date, current: number): Promise<number> {
  const w = slidingWindow(limit, now);
  return current + (await buckets.count(key, w.previous)) * w.overlap;
}

/** Counts a hit; throws RateLimited when the sliding-window estimate is over the limit. */
export async function consume(limit: Limit, subject: string, now = new Date()): Promise<void> {
  const key = `${limit.name}:${subject}`;
  const w = slidingWindow(limit, now);
  const { count, previous } = await buckets.hitWithPrevious(key, w.start, w.previous);
  if (count + previous * w.overlap > limit.max) throw new RateLimited(w.retryAfter);
}

/** Throws RateLimited when the limit is already reached, without counting (for failures counted later). */
export async function ensureUnder(limit: Limit, subject: string, now = new Date()): Promise<void> {
  const key = `${limit.name}:${subject}`;
  const w = slidingWindow(limit, now);
  if ((await estimate(limit, key, now, await buckets.count(key, w.start))) >= limit.max) throw new RateLimited(w.retryAfter);
}

export async function clear(limit: Limit, subject: string, now = new Date()): Promise<void> {
  await buckets.reset(`${limit.name}:${subject}`, slidingWindow(limit, now).start);
}

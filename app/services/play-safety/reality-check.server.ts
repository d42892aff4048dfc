import { netPlaySince } from "~/models/money/movement.server";
import { recordAudit } from "~/models/back-office/audit-event.server";
import { db } from "~/models/db.server";
import { setRealityCheckMinutes } from "~/models/play-safety/play-limits.server";
import { markRealityCheckSeen } from "~/models/accounts/session.server";
import type { CurrentSession } from "~/services/accounts/sessions.server";
import { DomainError } from "~/shared/domain-error";
import { getEnv } from "~/infra/env.server";
import { runningExclusion } from "./responsible-play.server";
import { REALITY_CHECK_CHOICES, type RealityCheckMinutes } from "~/shared/responsible-play-options";

/**
 * The reality check: every N minutes of play (the player's choice: off, 15, 30 or 60) a
 * reminder of how long this stretch of play has lasted and its net result, with the way
 * to the history and to stop. A stretch of play is the session's requests without a gap
 * of 30 minutes (auth.server.ts); dismissing a reminder starts the next interval.
 */
export type PlayState = {
  startedAt: string;
  /**
   * Why play, purchases and promotions are stopped, if they are: a break or self-exclusion
   * running, or the place the player lives no longer served (ALLOWED_COUNTRIES changed).
   */
  paused: { kind: "break" | "self_exclusion"; until: string } | { kind: "jurisdiction"; until: null } | null;
  /** Off when null; otherwise when the next reminder is due and whether it is due now. */
  reality: { intervalMinutes: number; dueAt: string; due: boolean; netCoins: number } | null;
};

const minuteMs = () => getEnv().REALITY_CHECK_MINUTE_SECONDS * 1000;

export async function playState(session: CurrentSession, now = new Date()): Promise<PlayState> {
  const startedAt = session.playStartedAt.toISOString();
  const { user } = session;
  const paused = runningExclusion(user, now) ?? (user.mayPlay ? null : { kind: "jurisdiction" as const, until: null });
  const minutes = session.user.realityCheckMinutes;
  if (!minutes) return { startedAt, paused, reality: null };
  const from = session.realityCheckAt && session.realityCheckAt > session.playStartedAt ? session.realityCheckAt : session.playStartedAt;
  const dueAt = new Date(from.getTime() + minutes * minuteMs());
  const netCoins = Number(await netPlaySince(session.user.id, session.playStartedAt));
  return { startedAt, paused, reality: { intervalMinutes: minutes, dueAt: dueAt.toISOString(), due: dueAt <= now, netCoins } };
}

/** "Keep playing": the next reminder comes one interval from now. */
export async function dismissRealityCheck(session: CurrentSession, now = new Date()) {
  await markRealityCheckSeen(session.id, now);
  return playState({ ...session, realityCheckAt: now }, now);
}

export async function setRealityCheck(userId: string, minutes: RealityCheckMinutes | null) {
  if (minutes !== null && !REALITY_CHECK_CHOICES.includes(minutes)) throw new DomainError("invalid_input", "Choose off, 15, 30 or 60 minutes");
  await db().$transaction(async (tx) => {
    await setRealityCheckMinutes(tx, userId, minutes);
    await recordAudit(tx, { actor: userId, action: "limits.reality_check", target: `user:${userId}`, details: { minutes } });
  });
}

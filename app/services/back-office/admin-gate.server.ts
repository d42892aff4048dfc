import { createHash, timingSafeEqual } from "node:crypto";
import { recordAudit } from "~/models/back-office/audit-event.server";
import { db } from "~/models/db.server";
import { markAdminGatePassed } from "~/models/accounts/session.server";
import { signedInWithPasskey, type CurrentSession } from "~/services/accounts/sessions.server";
import { getEnv } from "~/infra/env.server";
import { getLogger } from "~/infra/logger.server";
import { consume, giveBack, LIMITS, type Hit } from "../system/rate-limit.server";
import { beginEnrolment, checkSecondFactor, confirmEnrolment, hasSecondFactor, pendingEnrolment, type Enrolment } from "../accounts/second-factor.server";

/**
 * The admin gate: an admin opens the back office for this session for 30 minutes
 * with a code from their own authenticator app (or one of their recovery codes). Before an
 * admin has a factor, the shared ADMIN_ACCESS_KEY only opens their enrolment: scan the QR
 * code, confirm a first code, keep the ten recovery codes. Every attempt is counted before
 * it is checked (a success gives its hit back) and written to the audit log.
 */
export type GateStep = "code" | "key";

export async function gateStep(session: CurrentSession): Promise<GateStep> {
  return (await hasSecondFactor(session.user.id)) ? "code" : "key";
}

function sameSecret(a: string, b: string): boolean {
  // Hash both so the comparison takes the same time whatever the lengths.
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

async function settle(session: CurrentSession, hit: Hit, ok: boolean, details: Record<string, string>, now: Date) {
  const userId = session.user.id;
  if (ok) await giveBack(hit);
  await db().$transaction((tx) =>
    recordAudit(tx, {
      actor: userId,
      action: ok ? "admin.gate_passed" : "admin.gate_refused",
      target: `user:${userId}`,
      details: { isAdmin: session.user.isAdmin, ...details },
    }),
  );
  if (ok) await markAdminGatePassed(session.id, now);
  else getLogger().warn({ event: "admin_gate_refused", userId, ...details }, "admin gate refused");
}

/**
 * Before enrolment: the right bootstrap key starts (or shows again) the admin's enrolment.
 * It never opens the back office itself, and is refused once the admin has a factor.
 */
export async function enrolWithKey(session: CurrentSession, key: string, now = new Date()): Promise<Enrolment | null> {
  const userId = session.user.id;
  const hit = await consume(LIMITS.adminGatePerAccount, userId, now);
  const enrolled = await hasSecondFactor(userId);
  const ok = session.user.isAdmin && !enrolled && sameSecret(key, getEnv().ADMIN_ACCESS_KEY);
  if (!ok) {
    await settle(session, hit, false, { step: "key", reason: enrolled ? "enrolled" : "wrong_key" }, now);
    return null;
  }
  await giveBack(hit);
  await db().$transaction((tx) => recordAudit(tx, { actor: userId, action: "admin.enrolment_started", target: `user:${userId}` }));
  return (await beginEnrolment(userId, session.user.email)) ?? (await pendingEnrolment(userId, session.user.email));
}

/**
 * Confirms the admin's enrolment with a first code, from the session that gave the key
 * (`fromEnrollingSession`): the gate opens, and the recovery codes are returned to be shown once.
 */
export async function confirmAdminEnrolment(session: CurrentSession, code: string, fromEnrollingSession: boolean, now = new Date()): Promise<string[] | null> {
  const hit = await consume(LIMITS.adminGatePerAccount, session.user.id, now);
  const codes = session.user.isAdmin && fromEnrollingSession ? await confirmEnrolment(session.user.id, code, now) : null;
  const reason = fromEnrollingSession ? "wrong_code" : "not_the_enrolling_session";
  await settle(session, hit, codes !== null, codes ? { method: "enrolment" } : { step: "enrolment", reason }, now);
  return codes;
}

/** The gate itself: the admin's own TOTP code or one of their recovery codes. */
export async function passAdminGate(session: CurrentSession, code: string, now = new Date()): Promise<boolean> {
  const hit = await consume(LIMITS.adminGatePerAccount, session.user.id, now);
  const check = session.user.isAdmin ? await checkSecondFactor(session.user.id, code, now) : ({ ok: false, reason: "not_admin" } as const);
  await settle(session, hit, check.ok, check.ok ? { method: check.method } : { step: "code", reason: check.reason }, now);
  return check.ok;
}

/**
 * Whether this admin session may open the gate with the passkey it signed in with (ADR
 * 037): a passkey sign-in is user-verified (the device's PIN or biometrics), and an admin
 * adds a passkey only with the gate open, so it counts as the second factor. The admin's
 * authenticator app must be set up first (the bootstrap key opens only that).
 */
export async function mayPassWithPasskey(session: CurrentSession): Promise<boolean> {
  return session.user.isAdmin && (await hasSecondFactor(session.user.id)) && (await signedInWithPasskey(session));
}

/** The gate opened by the passkey this session signed in with; counted, checked and audited as a code is. */
export async function passAdminGateWithPasskey(session: CurrentSession, now = new Date()): Promise<boolean> {
  const hit = await consume(LIMITS.adminGatePerAccount, session.user.id, now);
  const ok = await mayPassWithPasskey(session);
  await settle(
    session,
    hit,
    ok,
    ok ? { method: "passkey" } : { step: "passkey", reason: session.user.isAdmin ? "not_signed_in_with_a_passkey" : "not_admin" },
    now,
  );
  return ok;
}

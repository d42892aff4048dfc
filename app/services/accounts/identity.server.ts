import { randomUUID } from "node:crypto";
import * as checks from "~/models/accounts/identity-check.server";
import * as person from "~/models/play-safety/person-control.server";
import { recordAudit } from "~/models/back-office/audit-event.server";
import { db, type Tx } from "~/models/db.server";
import { flagUser } from "~/models/accounts/user.server";
import { identityProvider } from "~/infra/identity-providers/current-identity.server";
import { demoIdentity } from "~/infra/identity-providers/demo-identity.server";
import type { IdentitySession } from "~/infra/identity-providers/provider";
import { personIdentityKey } from "~/infra/person-key.server";
import { getLogger } from "~/infra/logger.server";
import { DomainError } from "~/shared/domain-error";
import { rulesFor } from "~/shared/jurisdictions";
import { closeUnderAge } from "./age-closure.server";

/**
 * Know your player (PRODUCT.md; ADR 080): identity checked by a provider behind one
 * interface. A result is read from the provider itself, never from the event or page that
 * mentioned it, is applied only to the player the session was made for, and decides a check
 * once (a failed check may still pass: the provider lets the player try again in it).
 */

const ADULT_YEARS = 18;

/** Whether someone born on `dateOfBirth` (YYYY-MM-DD) is 18 or older on `now` (UTC). */
export function isAdult(dateOfBirth: string, now: Date): boolean {
  const [year, month, day] = dateOfBirth.split("-").map(Number) as [number, number, number];
  const eighteenth = Date.UTC(year + ADULT_YEARS, month - 1, day);
  return now.getTime() >= eighteenth;
}

/** What the verification page shows: whether it is needed, done, waiting, or why it failed. */
export async function identityStatus(user: { id: string; country: string | null }) {
  const [gate, latest] = await Promise.all([checks.identityGateOf(user.id), checks.latestCheckOf(user.id)]);
  const rules = rulesFor(user.country);
  return {
    verified: Boolean(gate?.verified),
    requiredBeforePlay: rules.verifyBeforeDeposit || rules.verifyBeforeEntry,
    why: rules.why,
    latest: latest ? { status: latest.status as checks.CheckStatus, failureReason: latest.failureReason } : null,
  };
}

/** Starts a check at the provider; the player is sent to `url`. A provider down throws IdentityProviderUnavailable. */
export async function startVerification(userId: string, origin: string): Promise<{ url: string } | { verified: true }> {
  const gate = await checks.identityGateOf(userId);
  if (gate?.verified) return { verified: true };
  const provider = identityProvider();
  const session = await provider.createSession({
    userId,
    returnUrl: `${origin}/verify?session={VERIFICATION_SESSION_ID}`,
    idempotencyKey: `identity:${randomUUID()}`,
  });
  await checks.createCheck({ userId, provider: provider.name, providerSessionId: session.id });
  return { url: session.url.replace("{VERIFICATION_SESSION_ID}", session.id) };
}

/**
 * Reads a session from the provider and applies its result. `asUserId`: the player who came
 * back with it, refused (404) when the session is not one of theirs. Without it (a webhook),
 * a session we did not start is ignored.
 */
export async function refreshCheck(providerSessionId: string, asUserId?: string, now = new Date()): Promise<checks.CheckStatus | "unknown"> {
  const check = await checks.findCheckBySession(providerSessionId);
  if (!check || (asUserId !== undefined && check.userId !== asUserId)) {
    if (asUserId !== undefined) throw new DomainError("identity_check_not_found", "No identity check of yours has that id.");
    return "unknown";
  }
  const session = await identityProvider().getSession(providerSessionId);
  if (session.userId !== check.userId) {
    // The provider's record names someone else: never apply it to this player.
    getLogger().warn({ event: "identity_session_mismatch", providerSessionId }, "an identity session's player differs from ours");
    return check.status as checks.CheckStatus;
  }
  const decided = await db().$transaction((tx) => decide(tx, providerSessionId, session, now));
  if (decided === "under_age") await closeUnderAge(check.userId, now);
  return decided;
}

async function decide(tx: Tx, providerSessionId: string, session: IdentitySession, now: Date): Promise<checks.CheckStatus> {
  const check = await checks.lockCheck(tx, providerSessionId);
  if (!check) return "pending";
  // Verified and under age are final: a repeated or late event changes nothing.
  if (check.status === "verified" || check.status === "under_age") return check.status;
  const base = { decidedAt: now };
  if (session.status === "verified" && session.verified) {
    const fields = session.verified;
    const adult = isAdult(fields.dateOfBirth, now);
    const dob = new Date(`${fields.dateOfBirth}T00:00:00Z`);
    const named = { verifiedFirstName: fields.firstName, verifiedLastName: fields.lastName, verifiedDateOfBirth: dob };
    if (!adult) {
      await checks.decideCheck(tx, check.id, { ...base, ...named, status: "under_age", failureReason: "Under 18 by the verified date of birth" });
      await flagUser(tx, check.userId, "under 18 by a verified date of birth: account closed, card payments refunded", now);
      await checks.suspendForAge(tx, check.userId, now);
      await recordAudit(tx, { actor: "provider", action: "identity.under_age", target: `user:${check.userId}`, details: { providerSessionId } });
      return "under_age";
    }
    const identityKey = personIdentityKey(fields.firstName, fields.lastName, fields.dateOfBirth);
    await checks.decideCheck(tx, check.id, { ...base, ...named, status: "verified", failureReason: null });
    await checks.markVerified(tx, check.userId, now, identityKey);
    // The person's controls kept under the same name and date of birth from a closed account come back.
    await person.lockPerson(tx, identityKey);
    const kept = await person.controlsOf(tx, identityKey);
    if (kept) await person.restoreControls(tx, check.userId, kept, now);
    await recordAudit(tx, {
      actor: "provider",
      action: "identity.verified",
      target: `user:${check.userId}`,
      details: { providerSessionId, controlsRestored: Boolean(kept) },
    });
    return "verified";
  }
  if (session.status === "requires_input" && session.error) {
    if (session.error.code === "under_supported_age") {
      await checks.decideCheck(tx, check.id, { ...base, status: "under_age", failureReason: session.error.reason });
      await checks.suspendForAge(tx, check.userId, now);
      await recordAudit(tx, { actor: "provider", action: "identity.under_age", target: `user:${check.userId}`, details: { providerSessionId } });
      return "under_age";
    }
    await checks.decideCheck(tx, check.id, { ...base, status: "failed", failureReason: session.error.reason.slice(0, 200) });
    return "failed";
  }
  if (session.status === "canceled") {
    await checks.decideCheck(tx, check.id, { ...base, status: "failed", failureReason: "The check was canceled." });
    return "failed";
  }
  return check.status;
}

/** The demo provider's page: what the player may pick (demo mode only). */
export const DEMO_CHOICES = {
  verified: "Verified",
  unreadable: "Failed: document unreadable",
  under_18: "Failed: under 18",
} as const;
export type DemoChoice = keyof typeof DEMO_CHOICES;

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/** The player's own demo check waiting on the demo page; anything else is not found. */
export async function demoCheckOf(userId: string, sessionId: string) {
  const check = await checks.findCheckBySession(sessionId);
  if (!check || check.userId !== userId || check.provider !== "demo")
    throw new DomainError("identity_check_not_found", "No identity check of yours has that id.");
  return check;
}

/**
 * Demo mode: the player picks what the check found, as a provider's page would decide it;
 * the result then goes the way every provider's does (refreshCheck). "Verified" reads the
 * name and date of birth the player gave; "under 18" a date of birth 16 years ago.
 */
export async function decideDemoCheck(
  user: { id: string; firstName: string | null; dateOfBirth: Date | null },
  sessionId: string,
  choice: DemoChoice,
  now = new Date(),
) {
  await demoCheckOf(user.id, sessionId);
  const named = { firstName: user.firstName ?? "Demo", lastName: "Player" };
  const sixteen = new Date(Date.UTC(now.getUTCFullYear() - 16, now.getUTCMonth(), now.getUTCDate()));
  const outcome: checks.DemoOutcome =
    choice === "unreadable"
      ? { status: "requires_input", error: { code: "document_unverified_other", reason: "The document could not be read. Try again with a clearer photo." } }
      : {
          status: "verified",
          verified: { ...named, dateOfBirth: choice === "under_18" ? isoDate(sixteen) : isoDate(user.dateOfBirth ?? new Date("1990-01-01")) },
        };
  await demoIdentity.decide(sessionId, outcome);
  return refreshCheck(sessionId, user.id, now);
}

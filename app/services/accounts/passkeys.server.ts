import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { recordAudit } from "~/models/back-office/audit-event.server";
import { db } from "~/models/db.server";
import * as passkeys from "~/models/accounts/passkey.server";
import { DomainError } from "~/shared/domain-error";
import { getEnv } from "~/infra/env.server";
import { getLogger } from "~/infra/logger.server";
import { consume, LIMITS } from "../system/rate-limit.server";

/**
 * Passkeys for players and admins (docs/decisions/037-passkeys-and-email-change.md), with
 * @simplewebauthn/server. Challenges are stored server-side, live five minutes and are
 * deleted when a ceremony takes them (single use). User verification (PIN or biometrics) is
 * required, so a passkey alone signs in: it is a possession and a second factor at once.
 */
export const CHALLENGE_TTL_MS = 5 * 60_000;
const RP_NAME = "Raffle Rush";
export const PASSKEY_NAME_MAX = 60;

export type RelyingParty = { rpID: string; origin: string };

/**
 * The relying party: PUBLIC_URL's host and origin. In demo mode without PUBLIC_URL, the
 * request's own (a demo is tried on whatever host it runs); outside demo mode without
 * PUBLIC_URL, passkeys are off (undefined).
 */
export function relyingParty(request: Request): RelyingParty | undefined {
  const env = getEnv();
  const base = env.PUBLIC_URL ?? (env.demoMode ? request.url : undefined);
  if (!base) return undefined;
  const url = new URL(base);
  return { rpID: url.hostname, origin: url.origin };
}

function requireRelyingParty(request: Request): RelyingParty {
  const rp = relyingParty(request);
  if (!rp) throw new DomainError("invalid_input", "Passkeys are not set up on this site.");
  return rp;
}

const REFUSED = "That passkey was not accepted. Try again, or sign in with your password.";

export function listPasskeys(userId: string) {
  return passkeys.listPasskeys(userId);
}

/** Options for adding a passkey to the signed-in account; the challenge's id comes back with the answer. */
export async function registrationOptions(request: Request, user: { id: string; email: string; username: string | null }, now = new Date()) {
  const rp = requireRelyingParty(request);
  await consume(LIMITS.passkeyRegisterPerAccount, user.id, now);
  const existing = await passkeys.credentialsOf(user.id);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.rpID,
    userName: user.email,
    userDisplayName: user.username ?? user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: "none",
    excludeCredentials: existing.map((c) => ({ id: c.credentialId, transports: c.transports as AuthenticatorTransportFuture[] })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
    timeout: CHALLENGE_TTL_MS,
  });
  const challengeId = await passkeys.createChallenge(
    { purpose: "register", userId: user.id, challenge: options.challenge, expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS) },
    now,
  );
  return { challengeId, options };
}

/** Checks the authenticator's answer to a registration challenge and stores the passkey (audited). */
export async function registerPasskey(
  request: Request,
  userId: string,
  input: { challengeId: string; name: string; response: RegistrationResponseJSON },
  now = new Date(),
) {
  const rp = requireRelyingParty(request);
  const challenge = await passkeys.takeChallenge(input.challengeId, "register", userId, now);
  if (!challenge) throw new DomainError("invalid_input", "This passkey request has expired. Please try again.");
  const verification = await verifyRegistrationResponse({
    response: input.response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    requireUserVerification: true,
  }).catch((error: unknown) => {
    getLogger().warn(
      { event: "passkey_registration_refused", userId, error: error instanceof Error ? error.message : String(error) },
      "passkey registration refused",
    );
    return undefined;
  });
  if (!verification?.verified) throw new DomainError("invalid_input", "The passkey could not be added. Please try again.");
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  const name = input.name.trim().slice(0, PASSKEY_NAME_MAX) || "Passkey";
  return db()
    .$transaction(async (tx) => {
      const added = await passkeys.insertPasskey(tx, {
        userId,
        credentialId: credential.id,
        publicKey: new Uint8Array(credential.publicKey),
        counter: BigInt(credential.counter),
        transports: credential.transports ?? [],
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
        name,
      });
      await recordAudit(tx, {
        actor: userId,
        action: "account.passkey_added",
        target: `user:${userId}`,
        details: { passkeyId: added.id, name, deviceType: credentialDeviceType, backedUp: credentialBackedUp },
      });
      return added;
    })
    .catch((error: unknown) => {
      // The credential is registered already (excludeCredentials asks authenticators not to repeat one).
      if (error instanceof Error && /Unique constraint|23505/.test(error.message))
        throw new DomainError("invalid_input", "This passkey is registered already.");
      throw error;
    });
}

/** Options for signing in with any passkey of this site (discoverable credentials); limited per client. */
export async function signInOptions(request: Request, ip: string, now = new Date()) {
  const rp = requireRelyingParty(request);
  await consume(LIMITS.passkeySignInPerIp, ip, now);
  const options = await generateAuthenticationOptions({ rpID: rp.rpID, userVerification: "required", timeout: CHALLENGE_TTL_MS });
  const challengeId = await passkeys.createChallenge(
    { purpose: "sign_in", challenge: options.challenge, expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS) },
    now,
  );
  return { challengeId, options };
}

/**
 * Checks a sign-in with a passkey: the challenge is taken (once), the credential is known,
 * its account is neither suspended nor closed, the signature, origin, RP ID and user
 * verification hold, and the counter moved on. Records the counter and backup state;
 * returns the account to sign in.
 */
export async function verifyPasskeySignIn(
  request: Request,
  input: { challengeId: string; response: AuthenticationResponseJSON },
  now = new Date(),
): Promise<string> {
  const rp = requireRelyingParty(request);
  const challenge = await passkeys.takeChallenge(input.challengeId, "sign_in", null, now);
  if (!challenge) throw new DomainError("invalid_input", "This sign-in request has expired. Please try again.");
  const passkey = await passkeys.passkeyForSignIn(input.response.id);
  if (!passkey || passkey.user.closedAt) throw new DomainError("invalid_input", REFUSED);
  const verification = await verifyAuthenticationResponse({
    response: input.response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    requireUserVerification: true,
    credential: {
      id: passkey.credentialId,
      publicKey: new Uint8Array(passkey.publicKey),
      counter: Number(passkey.counter),
      transports: passkey.transports as AuthenticatorTransportFuture[],
    },
  }).catch((error: unknown) => {
    getLogger().warn(
      { event: "passkey_sign_in_refused", userId: passkey.userId, error: error instanceof Error ? error.message : String(error) },
      "passkey sign-in refused",
    );
    return undefined;
  });
  const info = verification?.verified ? verification.authenticationInfo : undefined;
  const recorded =
    info?.userVerified &&
    (await passkeys.recordUse(
      passkey.id,
      passkey.counter,
      { counter: BigInt(info.newCounter), backedUp: info.credentialBackedUp, deviceType: info.credentialDeviceType },
      now,
    ));
  if (!recorded) {
    await db().$transaction((tx) =>
      recordAudit(tx, { actor: passkey.userId, action: "account.sign_in_failed", target: `user:${passkey.userId}`, details: { passkeyId: passkey.id } }),
    );
    throw new DomainError("invalid_input", REFUSED);
  }
  if (passkey.user.suspendedAt) throw new DomainError("invalid_input", "This account is suspended. Please contact support.");
  return passkey.userId;
}

/** Removes one of the player's passkeys (audited); 404-like refusal when it is not theirs. */
export async function removePasskey(userId: string, passkeyId: string): Promise<string> {
  const name = await db().$transaction(async (tx) => {
    const removed = await passkeys.deletePasskey(tx, userId, passkeyId);
    if (removed !== undefined)
      await recordAudit(tx, { actor: userId, action: "account.passkey_removed", target: `user:${userId}`, details: { passkeyId, name: removed } });
    return removed;
  });
  if (name === undefined) throw new DomainError("invalid_input", "That passkey is not one of yours, or was removed already.");
  return name;
}

import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { signedInWithPasskey } from "~/services/accounts/sessions.server";
import { getSession, startSession } from "~/web/auth.server";
import { CHALLENGE_TTL_MS } from "~/services/accounts/passkeys.server";
import { call, pageText, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";
import { formAlerts } from "../support/field-error";

/**
 * The server's side of the passkey ceremonies (ADR 037). A real authenticator's answers
 * are made by Chromium's virtual authenticator in tests/e2e/with-javascript/passkeys.spec.ts
 * (register, sign in, counter, removal); here: challenges stored server-side, single use,
 * short-lived and bound to their account, unknown or malformed answers refused with a 400
 * and no session, removal scoped to the owner and audited, and the passkey session marker.
 */
const b64 = (text: string) => Buffer.from(text).toString("base64url");
/** Well-formed, but signed by nothing: what a replayed or forged answer looks like to the server. */
const forgedAssertion = (credentialId: string) => ({
  id: credentialId,
  rawId: credentialId,
  type: "public-key",
  response: { clientDataJSON: b64("{}"), authenticatorData: b64("x".repeat(37)), signature: b64("sig") },
  clientExtensionResults: {},
});
const forgedAttestation = {
  id: b64("cred"),
  rawId: b64("cred"),
  type: "public-key",
  response: { clientDataJSON: b64("{}"), attestationObject: b64("att") },
  clientExtensionResults: {},
};

const signInCall = (json: unknown, ip = "203.0.113.50") => call("/passkeys/sign-in", { method: "POST", json, ip });

async function signInOptions(ip?: string) {
  const response = await signInCall({ intent: "options" }, ip);
  expect(response.status).toBe(200);
  return (await response.json()) as { challengeId: string; options: { challenge: string; rpId: string; userVerification: string } };
}

async function passkeyOf(userId: string, name = "Laptop") {
  return db().passkey.create({
    data: {
      userId,
      credentialId: b64(`cred-${userId}-${name}`),
      publicKey: new Uint8Array([1, 2, 3]),
      counter: 0n,
      transports: ["internal"],
      deviceType: "singleDevice",
      backedUp: false,
      name,
    },
  });
}

describe("passkey sign-in", () => {
  it("answers a challenge kept on the server for five minutes, for this site, asking the authenticator to verify its user", async () => {
    const before = Date.now();
    const { challengeId, options } = await signInOptions();
    expect(options.rpId).toBe("localhost");
    expect(options.userVerification).toBe("required");
    const stored = await db().webauthnChallenge.findUniqueOrThrow({ where: { id: challengeId } });
    expect(stored).toMatchObject({ purpose: "sign_in", userId: null, challenge: options.challenge });
    expect(stored.expiresAt.getTime() - before).toBeGreaterThanOrEqual(CHALLENGE_TTL_MS - 1000);
    expect(stored.expiresAt.getTime() - before).toBeLessThanOrEqual(CHALLENGE_TTL_MS + 5000);
  });

  it("uses a challenge once: a refused answer spends it, and no session is started", async () => {
    const p = await createTestUser();
    const passkey = await passkeyOf(p.id);
    const { challengeId } = await signInOptions();
    const first = await signInCall({ intent: "verify", challengeId, response: forgedAssertion(passkey.credentialId) });
    expect(first.status).toBe(400);
    expect(((await first.json()) as { message: string }).message).toMatch(/That passkey was not accepted/);
    expect(first.headers.getSetCookie()).toEqual([]);
    expect(await db().webauthnChallenge.count({ where: { id: challengeId } })).toBe(0);
    const again = await signInCall({ intent: "verify", challengeId, response: forgedAssertion(passkey.credentialId) });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { message: string }).message).toMatch(/expired/);
    // The refusal is audited against the account whose passkey was tried; the counter did not move.
    expect(await db().auditEvent.count({ where: { action: "account.sign_in_failed", target: `user:${p.id}` } })).toBe(1);
    expect((await db().passkey.findUniqueOrThrow({ where: { id: passkey.id } })).counter).toBe(0n);
  });

  it("refuses an expired challenge, an unknown credential and a malformed answer", async () => {
    const expired = await signInOptions();
    await db().webauthnChallenge.update({ where: { id: expired.challengeId }, data: { expiresAt: new Date(Date.now() - 1) } });
    const late = await signInCall({ intent: "verify", challengeId: expired.challengeId, response: forgedAssertion(b64("unknown")) });
    expect(late.status).toBe(400);
    expect(((await late.json()) as { message: string }).message).toMatch(/expired/);

    const { challengeId } = await signInOptions();
    const unknown = await signInCall({ intent: "verify", challengeId, response: forgedAssertion(b64("nobody's")) });
    expect(unknown.status).toBe(400);

    const malformed = await signInCall({
      intent: "verify",
      challengeId: (await signInOptions()).challengeId,
      response: { id: "<script>", type: "public-key" },
    });
    expect(malformed.status).toBe(400);
  });

  it("is limited per client address", async () => {
    const ip = "203.0.113.77";
    for (let i = 0; i < 50; i++) await signInOptions(ip);
    const limited = await signInCall({ intent: "options" }, ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toMatch(/^\d+$/);
  });
});

describe("passkey registration", () => {
  it("binds its challenge to the account that asked: another account cannot use it, and a forged answer adds nothing", async () => {
    const p = await createTestUser();
    const other = await createTestUser();
    const cookie = await sessionCookie(p.id);
    const response = await call("/passkeys/register", { method: "POST", cookie, json: { intent: "options" } });
    expect(response.status).toBe(200);
    const { challengeId, options } = (await response.json()) as {
      challengeId: string;
      options: { rp: { id: string }; authenticatorSelection: { residentKey: string; userVerification: string } };
    };
    expect(options.rp.id).toBe("localhost");
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });

    const stolen = await call("/passkeys/register", {
      method: "POST",
      cookie: await sessionCookie(other.id),
      json: { intent: "register", challengeId, name: "Mine", response: forgedAttestation },
    });
    expect(stolen.status).toBe(400);
    // Still the owner's, for one try.
    const forged = await call("/passkeys/register", {
      method: "POST",
      cookie,
      json: { intent: "register", challengeId, name: "Mine", response: forgedAttestation },
    });
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as { message: string }).message).toMatch(/could not be added/);
    expect(await db().webauthnChallenge.count({ where: { id: challengeId } })).toBe(0);
    expect(await db().passkey.count({ where: { userId: { in: [p.id, other.id] } } })).toBe(0);
  });
});

describe("the passkeys page", () => {
  it("lists only the player's passkeys, removes only their own, and audits the removal", async () => {
    const p = await createTestUser();
    const other = await createTestUser();
    const mine = await passkeyOf(p.id, "My phone");
    const theirs = await passkeyOf(other.id, "Their phone");
    const cookie = await sessionCookie(p.id);
    const page = await (await call("/account/passkeys", { cookie })).text();
    expect(page).toContain("My phone");
    expect(page).not.toContain("Their phone");

    const refused = await call("/account/passkeys", { method: "POST", cookie, form: { intent: "remove", passkeyId: theirs.id } });
    expect(refused.status).toBe(404);
    expect(formAlerts(await pageText(refused))).toEqual(["That passkey is not one of yours, or was removed already."]);
    expect(await db().passkey.count({ where: { id: theirs.id } })).toBe(1);
    const malformed = await call("/account/passkeys", { method: "POST", cookie, form: { intent: "remove", passkeyId: "not-an-id" } });
    expect(malformed.status).toBe(400);
    expect(formAlerts(await pageText(malformed))).toEqual(["Unknown passkey"]);

    const removed = await call("/account/passkeys", { method: "POST", cookie, form: { intent: "remove", passkeyId: mine.id } });
    expect(removed.status).toBe(302);
    expect(await db().passkey.count({ where: { id: mine.id } })).toBe(0);
    const audit = await db().auditEvent.findFirstOrThrow({ where: { action: "account.passkey_removed", target: `user:${p.id}` } });
    expect(audit.details).toMatchObject({ passkeyId: mine.id, name: "My phone" });
  });

  it("goes with the account when it is closed", async () => {
    const p = await createTestUser();
    await passkeyOf(p.id);
    expect((await call("/account/close", { method: "POST", cookie: await sessionCookie(p.id), form: { typed: "close" } })).status).toBe(302);
    expect(await db().passkey.count({ where: { userId: p.id } })).toBe(0);
  });
});

describe("signedInWithPasskey", () => {
  it("is true only for a session started by a passkey that verified its user", async () => {
    const p = await createTestUser();
    const sessionOf = async (setCookie: string) => (await getSession(new Request("http://localhost/", { headers: { Cookie: setCookie.split(";")[0]! } })))!;
    const byPassword = await sessionOf(await startSession(new Request("http://localhost/"), p.id));
    const byPasskey = await sessionOf(await startSession(new Request("http://localhost/"), p.id, { passkeyVerified: true }));
    expect(await signedInWithPasskey(byPassword)).toBe(false);
    expect(await signedInWithPasskey(byPasskey)).toBe(true);
  });
});

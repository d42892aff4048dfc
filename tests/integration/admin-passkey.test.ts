import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { startSession } from "~/web/auth.server";
import { call, pageText, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";
import { totpCode, withTotpFactor } from "../support/second-factor";

/**
 * An admin's passkey as the admin gate's second factor (ADR 037): a session signed in with a
 * passkey opens the gate without a code, once the admin's authenticator app is set up; an
 * admin adds a passkey only with the gate open, so a stolen password cannot add one that
 * would then open the gate. The successful ceremony itself runs in the browser
 * (tests/e2e/with-javascript/passkeys.spec.ts); here the session's record of it is set up.
 */
const passkeySession = async (userId: string) => (await startSession(new Request("http://localhost/"), userId, { passkeyVerified: true })).split(";")[0]!;
const gate = (cookie: string, form: Record<string, string>) => call("/admin-access", { method: "POST", cookie, form });
const gateOpen = async (cookie: string) => (await call("/admin/payouts", { cookie })).status === 200;
const audited = async (userId: string) =>
  (await db().auditEvent.findMany({ where: { actor: userId }, orderBy: { id: "asc" }, select: { action: true, details: true } })).map((a) => [
    a.action,
    (a.details as { method?: string; reason?: string }).method ?? (a.details as { reason?: string }).reason,
  ]);

describe("an admin's passkey at the admin gate", () => {
  it("opens the gate for a session signed in with a passkey, offered on the page and audited", async () => {
    const admin = await createTestUser({ isAdmin: true });
    await withTotpFactor(admin.id);
    const cookie = await passkeySession(admin.id);
    expect(await pageText(await call("/admin-access", { cookie }))).toContain("Continue with your passkey");

    const passed = await gate(cookie, { intent: "passkey" });
    expect(passed.status).toBe(302);
    expect(passed.headers.get("Location")).toBe("/admin");
    expect(await gateOpen(cookie)).toBe(true);
    expect(await audited(admin.id)).toEqual([["admin.gate_passed", "passkey"]]);
  });

  it("refuses a password session, an admin without an authenticator app and a player, and changes nothing", async () => {
    const admin = await createTestUser({ isAdmin: true });
    await withTotpFactor(admin.id);
    const password = await sessionCookie(admin.id);
    expect(await pageText(await call("/admin-access", { cookie: password }))).not.toContain("Continue with your passkey");
    expect((await gate(password, { intent: "passkey" })).status).toBe(400);
    expect(await gateOpen(password)).toBe(false);

    const unenrolled = await createTestUser({ isAdmin: true });
    const unenrolledPasskey = await passkeySession(unenrolled.id);
    expect((await gate(unenrolledPasskey, { intent: "passkey" })).status).toBe(400);
    expect(await gateOpen(unenrolledPasskey)).toBe(false);

    const player = await createTestUser();
    expect((await gate(await passkeySession(player.id), { intent: "passkey" })).status).toBe(400);

    expect(await audited(admin.id)).toEqual([["admin.gate_refused", "not_signed_in_with_a_passkey"]]);
    expect(await audited(unenrolled.id)).toEqual([["admin.gate_refused", "not_signed_in_with_a_passkey"]]);
    expect(await audited(player.id)).toEqual([["admin.gate_refused", "not_admin"]]);
  });

  it("lets an admin add a passkey only with the gate open", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const secret = await withTotpFactor(admin.id);
    const cookie = await sessionCookie(admin.id);
    const options = () => call("/passkeys/register", { method: "POST", cookie, json: { intent: "options" } });

    const refused = await options();
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ message: expect.stringContaining("authentication code first") });
    expect(await db().webauthnChallenge.count({ where: { userId: admin.id } })).toBe(0);

    expect((await gate(cookie, { intent: "code", code: await totpCode(secret) })).headers.get("Location")).toBe("/admin");
    expect((await options()).status).toBe(200);
    expect(await db().webauthnChallenge.count({ where: { userId: admin.id } })).toBe(1);
  });
});

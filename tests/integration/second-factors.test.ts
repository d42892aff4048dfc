import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { hashPassword } from "~/services/accounts/password.server";
import { checkSecondFactor } from "~/services/accounts/second-factor.server";
import { call, cookiesFrom, pageText, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";
import { fieldError, formAlerts } from "../support/field-error";
import { totpCode, totpCodeAt, withTotpFactor } from "../support/second-factor";

const KEY = "demo-admin-access-key";
const gate = (cookie: string, form: Record<string, string>) => call("/admin-access", { method: "POST", cookie, form });
const actions = async (userId: string) =>
  (await db().auditEvent.findMany({ where: { actor: userId }, orderBy: { id: "asc" }, select: { action: true, details: true } })).map((a) => a.action);
const gateOpen = async (cookie: string) => (await call("/admin/payouts", { cookie })).status === 200;

describe("an admin's enrolment with the bootstrap key", () => {
  it("takes the key, shows a QR code to this session only, confirms a first code and shows ten recovery codes stored hashed", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const cookie = await sessionCookie(admin.id);
    expect(await pageText(await call("/admin-access", { cookie }))).toContain("Security Key");

    const wrong = await gate(cookie, { intent: "key", key: "wrong-key-123" });
    expect(wrong.status).toBe(400);
    // Beside the field, which is emptied (the spec's gate).
    const refusedPage = await pageText(wrong);
    expect(fieldError(refusedPage, "gate-key-key")).toBe("Access Denied: invalid credentials or insufficient privileges.");
    expect(refusedPage).not.toContain("wrong-key-123");
    expect(await db().totpFactor.count({ where: { userId: admin.id } })).toBe(0);

    const right = await gate(cookie, { intent: "key", key: KEY });
    expect(right.headers.get("Location")).toBe("/admin-access");
    const enrolling = `${cookie}; ${cookiesFrom(right)}`;
    const html = await pageText(await call("/admin-access", { cookie: enrolling }));
    expect(html).toMatch(/<img src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+"/);
    const secret = /data-testid="totp-secret"[^>]*>([A-Z2-7]+)</.exec(html)![1]!;
    // Another session of the same admin (a password without the key) sees nothing pending.
    const other = await sessionCookie(admin.id);
    expect(await pageText(await call("/admin-access", { cookie: other }))).not.toContain(secret);
    const stale = await gate(other, { intent: "confirm", code: await totpCode(secret) });
    expect(stale.status).toBe(400);
    // This session's page shows the key's form, not the code's: the refusal shows above it.
    expect(formAlerts(await pageText(stale))).toEqual(["Access Denied: invalid credentials or insufficient privileges."]);
    // Sealed at rest: the row holds AES-GCM ciphertext, never the secret.
    const stored = (await db().totpFactor.findUniqueOrThrow({ where: { userId: admin.id } })).secretSealed;
    expect(stored).toMatch(/^v1\./);
    expect(stored).not.toContain(secret);

    const wrongFirst = await gate(enrolling, { intent: "confirm", code: "000000" === (await totpCode(secret)) ? "111111" : "000000" });
    expect(wrongFirst.status).toBe(400);
    expect(fieldError(await pageText(wrongFirst), "totp-confirm-code")).toBe("Access Denied: invalid credentials or insufficient privileges.");
    expect((await db().totpFactor.findUniqueOrThrow({ where: { userId: admin.id } })).confirmedAt).toBeNull();
    expect(await gateOpen(enrolling)).toBe(false);

    const confirmed = await gate(enrolling, { intent: "confirm", code: await totpCode(secret) });
    expect(confirmed.status).toBe(200);
    const codes = [...(await pageText(confirmed)).matchAll(/<li>([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})<\/li>/g)].map((m) => m[1]!);
    expect(new Set(codes).size).toBe(10);
    const rows = await db().recoveryCode.findMany({ where: { userId: admin.id } });
    expect(rows.map((r) => r.codeHash).sort()).toEqual(codes.map((c) => createHash("sha256").update(c.replaceAll("-", "")).digest("hex")).sort());
    expect(JSON.stringify(rows)).not.toContain(codes[0]!.replaceAll("-", ""));
    expect(await gateOpen(cookie)).toBe(true);

    // The key opens nothing any more: from now on the admin's own code does.
    expect((await gate(other, { intent: "key", key: KEY })).status).toBe(400);
    expect(await pageText(await call("/admin-access", { cookie: other }))).toContain("Authentication code");
    expect(await actions(admin.id)).toEqual([
      "admin.gate_refused",
      "admin.enrolment_started",
      "admin.gate_refused",
      "admin.gate_refused",
      "second_factor.enrolled",
      "admin.gate_passed",
      "admin.gate_refused",
    ]);
  });

  it("lets an enrolled admin sign in with the password alone: the gate asks for the code", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const password = "an-admin-passphrase-for-tests";
    await db().user.update({ where: { id: admin.id }, data: { passwordHash: await hashPassword(password) } });
    await withTotpFactor(admin.id);
    const signedIn = await call("/api/login", { method: "POST", form: { intent: "signin", email: admin.email, password, returnTo: "/admin" }, ip: "10.7.0.1" });
    expect(signedIn.headers.get("Location")).toBe("/admin");
    expect((await call("/admin", { cookie: cookiesFrom(signedIn) })).headers.get("Location")).toBe("/admin-access");
  });

  it("refuses a player who knows the key", async () => {
    const player = await createTestUser();
    const cookie = await sessionCookie(player.id);
    expect((await gate(cookie, { intent: "key", key: KEY })).status).toBe(400);
    expect(await db().totpFactor.count({ where: { userId: player.id } })).toBe(0);
    expect((await call("/admin", { cookie })).headers.get("Location")).toBe("/admin-access");
  });
});

describe("the admin gate with the admin's own code", () => {
  it("accepts the code of the step before, at and after now, and no other", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const secret = await withTotpFactor(admin.id);
    const now = new Date();
    const at = (steps: number) => totpCodeAt(secret, steps, now);
    expect(await checkSecondFactor(admin.id, await at(-2), now)).toEqual({ ok: false, reason: "wrong_code" });
    expect(await checkSecondFactor(admin.id, await at(-1), now)).toEqual({ ok: true, method: "totp" });
    expect(await checkSecondFactor(admin.id, await at(0), now)).toEqual({ ok: true, method: "totp" });
    expect(await checkSecondFactor(admin.id, await at(1), now)).toEqual({ ok: true, method: "totp" });
    expect(await checkSecondFactor(admin.id, await at(2), now)).toEqual({ ok: false, reason: "wrong_code" });
    // Each step once: the codes just used, and any older one, are refused.
    expect(await checkSecondFactor(admin.id, await at(0), now)).toEqual({ ok: false, reason: "replayed" });
    expect(await checkSecondFactor(admin.id, await at(1), now)).toEqual({ ok: false, reason: "replayed" });
  });

  it("opens the gate with a code, refuses the same code replayed from another session, and audits both", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const secret = await withTotpFactor(admin.id);
    const [first, second] = [await sessionCookie(admin.id), await sessionCookie(admin.id)];
    const code = await totpCode(secret);
    expect((await gate(first, { code })).headers.get("Location")).toBe("/admin");
    expect(await gateOpen(first)).toBe(true);
    const replayed = await gate(second, { code });
    expect(replayed.status).toBe(400);
    expect(await gateOpen(second)).toBe(false);
    const audit = await db().auditEvent.findMany({ where: { actor: admin.id }, orderBy: { id: "asc" } });
    expect(audit.map((a) => [a.action, (a.details as { method?: string; reason?: string }).method ?? (a.details as { reason?: string }).reason])).toEqual([
      ["admin.gate_passed", "totp"],
      ["admin.gate_refused", "replayed"],
    ]);
  });

  it("accepts one of many requests carrying the same code at once", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const secret = await withTotpFactor(admin.id);
    const cookies = await Promise.all(Array.from({ length: 8 }, () => sessionCookie(admin.id)));
    const code = await totpCode(secret);
    const responses = await Promise.all(cookies.map((cookie) => gate(cookie, { code })));
    expect(responses.filter((r) => r.headers.get("Location") === "/admin")).toHaveLength(1);
    expect(responses.filter((r) => r.status === 400)).toHaveLength(7);
    expect(await db().session.count({ where: { userId: admin.id, adminGatePassedAt: { not: null } } })).toBe(1);
    // The service alone, 40 at once: still one.
    const other = await createTestUser({ isAdmin: true });
    const otherSecret = await withTotpFactor(other.id);
    const now = new Date();
    const otherCode = await totpCode(otherSecret, now);
    const checks = await Promise.all(Array.from({ length: 40 }, () => checkSecondFactor(other.id, otherCode, now)));
    expect(checks.filter((c) => c.ok)).toHaveLength(1);
  });

  it("takes each recovery code once, and audits its use", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const enrolled = await enrolThroughTheGate(admin.id);
    const recovery = enrolled.codes[3]!.toLowerCase();
    const [first, second] = [await sessionCookie(admin.id), await sessionCookie(admin.id)];
    expect((await gate(first, { code: recovery })).headers.get("Location")).toBe("/admin");
    expect((await gate(second, { code: recovery })).status).toBe(400);
    expect(await gateOpen(second)).toBe(false);
    expect(await db().recoveryCode.count({ where: { userId: admin.id, usedAt: null } })).toBe(9);
    const used = await db().auditEvent.findMany({
      where: { actor: admin.id, action: { in: ["second_factor.recovery_code_used", "admin.gate_passed"] } },
      orderBy: { id: "asc" },
    });
    expect(used.map((a) => a.action)).toEqual(["admin.gate_passed", "second_factor.recovery_code_used", "admin.gate_passed"]);
    expect(used[1]!.details).toMatchObject({ left: 9 });
    expect(used[2]!.details).toMatchObject({ method: "recovery_code" });
  });

  it("answers a wrong code with a 400 that changes nothing but the audit log", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const secret = await withTotpFactor(admin.id);
    const cookie = await sessionCookie(admin.id);
    const right = await totpCode(secret);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, "0");
    for (const code of [wrong, "", "abc", "12345678901234567890", "AAAA-BBBB-CCCC-DDDD"]) {
      const response = await gate(cookie, { code });
      expect(response.status).toBe(400);
      // Beside the field, which is emptied (the spec's gate); a blank code is an attempt too.
      const page = await pageText(response);
      expect(fieldError(page, "gate-code-code")).toBe("Access Denied: invalid credentials or insufficient privileges.");
      if (code) expect(page).not.toContain(`value="${code}"`);
    }
    expect(await db().totpFactor.findUniqueOrThrow({ where: { userId: admin.id } })).toMatchObject({ lastStep: null });
    expect(await gateOpen(cookie)).toBe(false);
    expect(await db().auditEvent.count({ where: { actor: admin.id, action: "admin.gate_refused" } })).toBe(5);
    expect((await gate(cookie, { code: right })).headers.get("Location")).toBe("/admin");
  });

  it("rate limits code attempts, and the right code does not count", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const enrolled = await enrolThroughTheGate(admin.id);
    const cookie = await sessionCookie(admin.id);
    await Promise.all(Array.from({ length: 9 }, (_, i) => gate(cookie, { code: String(100000 + i) })));
    // After 9 wrong ones, right ones keep passing: each gives its hit back.
    for (const code of enrolled.codes.slice(0, 3)) expect((await gate(cookie, { code })).headers.get("Location")).toBe("/admin");
    await Promise.all(Array.from({ length: 5 }, (_, i) => gate(cookie, { code: String(200000 + i) })));
    const limited = await gate(cookie, { code: enrolled.codes[5]! });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBeTruthy();
    expect(await db().recoveryCode.count({ where: { userId: admin.id, usedAt: null } })).toBe(7);
    expect(await db().auditEvent.count({ where: { actor: admin.id, action: "admin.gate_refused" } })).toBe(10);
  });
});

/** Enrols an admin through the gate's own pages; returns the secret and the recovery codes. */
async function enrolThroughTheGate(userId: string) {
  const cookie = await sessionCookie(userId);
  const enrolling = `${cookie}; ${cookiesFrom(await gate(cookie, { intent: "key", key: KEY }))}`;
  const html = await pageText(await call("/admin-access", { cookie: enrolling }));
  const secret = /data-testid="totp-secret"[^>]*>([A-Z2-7]+)</.exec(html)![1]!;
  const confirmed = await pageText(await gate(enrolling, { intent: "confirm", code: await totpCode(secret) }));
  const codes = [...confirmed.matchAll(/<li>([0-9A-Z-]{19})<\/li>/g)].map((m) => m[1]!);
  return { secret, codes };
}

describe("a player's own second factor", () => {
  const PASSWORD = "a-long-unusual-passphrase";
  const signIn = (email: string, returnTo = "/history") =>
    call("/api/login", { method: "POST", form: { intent: "signin", email, password: PASSWORD, returnTo }, ip: "10.9.0.1" });

  async function playerWithTotp(tag: string) {
    const email = `totp-${tag}@example.com`;
    const signedUp = await call("/api/login", {
      method: "POST",
      ip: `10.8.0.${tag.length}`,
      form: { intent: "signup", email, password: PASSWORD, dateOfBirth: "1990-05-17", country: "GB", acceptTerms: "on" },
    });
    const cookie = cookiesFrom(signedUp);
    const begun = await call("/settings/two-factor", { method: "POST", cookie, form: { intent: "begin" } });
    expect(begun.headers.get("Location")).toBe("/settings/two-factor");
    const enrolling = `${cookie}; ${cookiesFrom(begun)}`;
    const html = await pageText(await call("/settings/two-factor", { cookie: enrolling }));
    expect(html).toContain("data:image/svg+xml;base64,");
    const secret = /data-testid="totp-secret"[^>]*>([A-Z2-7]+)</.exec(html)![1]!;
    const wrong = await call("/settings/two-factor", { method: "POST", cookie: enrolling, form: { intent: "confirm", code: "12345" } });
    expect(wrong.status).toBe(400);
    expect(fieldError(await pageText(wrong), "totp-confirm-code")).toBe("That code is not right. Type the code the app shows now.");
    const confirmed = await call("/settings/two-factor", {
      method: "POST",
      cookie: enrolling,
      form: { intent: "confirm", code: await totpCodeAt(secret, -1) },
    });
    expect(confirmed.status).toBe(200);
    const codes = [...(await pageText(confirmed)).matchAll(/<li>([0-9A-Z-]{19})<\/li>/g)].map((m) => m[1]!);
    expect(codes).toHaveLength(10);
    const { id } = await db().user.findUniqueOrThrow({ where: { email }, select: { id: true } });
    return { email, secret, codes, cookie, id };
  }

  it("turns on from settings; sign-in then asks for a code on a second step, and takes each code once", async () => {
    const player = await playerWithTotp("a");
    const first = await signIn(player.email);
    expect(first.headers.get("Location")).toBe("/login/two-factor");
    expect(cookiesFrom(first)).not.toMatch(/__session=/);
    const pending = cookiesFrom(first);
    expect((await call("/login/two-factor", { cookie: pending })).status).toBe(200);

    const wrong = await call("/login/two-factor", {
      method: "POST",
      cookie: pending,
      form: { code: "000000" === (await totpCode(player.secret)) ? "111111" : "000000" },
    });
    expect(wrong.status).toBe(400);
    expect(cookiesFrom(wrong)).not.toMatch(/__session=/);
    expect(fieldError(await pageText(wrong), "sign-in-code-code")).toBe("That code is not right. Try the app's current code, or a recovery code.");

    const code = await totpCode(player.secret);
    const done = await call("/login/two-factor", { method: "POST", cookie: pending, form: { code } });
    expect(done.headers.get("Location")).toBe("/history");
    const session = cookiesFrom(done)
      .split("; ")
      .find((c) => c.startsWith("__session="))!;
    expect((await call("/api/auth/user", { cookie: session })).status).toBe(200);

    // The same code again, on another sign-in: refused. A recovery code works, once.
    const again = cookiesFrom(await signIn(player.email));
    expect((await call("/login/two-factor", { method: "POST", cookie: again, form: { code } })).status).toBe(400);
    expect((await call("/login/two-factor", { method: "POST", cookie: again, form: { code: player.codes[0]! } })).headers.get("Location")).toBe("/history");
    const third = cookiesFrom(await signIn(player.email));
    expect((await call("/login/two-factor", { method: "POST", cookie: third, form: { code: player.codes[0]! } })).status).toBe(400);
    const audit = await db().auditEvent.findMany({
      where: { actor: player.id, action: { startsWith: "account.sign_in_second_factor" } },
      orderBy: { id: "asc" },
    });
    expect(audit.map((a) => a.action)).toEqual([
      "account.sign_in_second_factor_failed",
      "account.sign_in_second_factor",
      "account.sign_in_second_factor_failed",
      "account.sign_in_second_factor",
      "account.sign_in_second_factor_failed",
    ]);
  });

  it("refuses a second step without the password's signed cookie", async () => {
    const player = await playerWithTotp("bb");
    const forged = `__signin=${Buffer.from(JSON.stringify({ userId: player.id, returnTo: "/", until: Date.now() + 60_000 })).toString("base64")}`;
    const response = await call("/login/two-factor", { method: "POST", cookie: forged, form: { code: await totpCode(player.secret) } });
    expect(response.headers.get("Location")).toBe("/api/login");
  });

  it("rate limits the second step's codes", async () => {
    const player = await playerWithTotp("ccc");
    const pending = cookiesFrom(await signIn(player.email));
    await Promise.all(Array.from({ length: 12 }, (_, i) => call("/login/two-factor", { method: "POST", cookie: pending, form: { code: String(300000 + i) } })));
    const limited = await call("/login/two-factor", { method: "POST", cookie: pending, form: { code: await totpCode(player.secret) } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBeTruthy();
    expect(cookiesFrom(limited)).not.toMatch(/__session=/);
    expect(formAlerts(await pageText(limited))).toHaveLength(1);
  });

  it("turns off only with a code, and sign-in is one step again", async () => {
    const player = await playerWithTotp("dddd");
    const wrong = await call("/settings/two-factor", { method: "POST", cookie: player.cookie, form: { intent: "disable", code: "12345678" } });
    expect(wrong.status).toBe(400);
    expect(fieldError(await pageText(wrong), "two-factor-off-code")).toBe("That code is not right. Type the code the app shows now, or a recovery code.");
    expect(await db().totpFactor.count({ where: { userId: player.id } })).toBe(1);
    const off = await call("/settings/two-factor", { method: "POST", cookie: player.cookie, form: { intent: "disable", code: player.codes[1]! } });
    expect(off.status).toBe(302);
    expect(await db().totpFactor.count({ where: { userId: player.id } })).toBe(0);
    expect(await db().recoveryCode.count({ where: { userId: player.id } })).toBe(0);
    expect((await signIn(player.email)).headers.get("Location")).toBe("/history");
  });
});

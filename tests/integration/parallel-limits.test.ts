import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { LIMITS } from "~/services/system/rate-limit.server";
import { call, cookiesFrom, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";
import { totpCode, totpCodeAt, withTotpFactor } from "../support/second-factor";

/**
 * Limits hold against requests fired at once (ADR 018): each hit is counted before the
 * work it guards (a password or key check) and judged in the same statement.
 */
const PASSWORD = "a-long-unusual-passphrase";
let addresses = 0;
const freshIp = () => `198.51.100.${(addresses += 1)}`;

async function signUp(email: string) {
  const response = await call("/api/login", {
    method: "POST",
    ip: freshIp(),
    form: { intent: "signup", email, password: PASSWORD, dateOfBirth: "1990-05-17", country: "GB", acceptTerms: "on" },
  });
  expect(response.status).toBe(302);
  const user = await db().user.findUniqueOrThrow({ where: { email }, select: { id: true } });
  return { id: user.id, cookies: cookiesFrom(response) };
}

const signIn = (email: string, password: string, { ip = freshIp(), cookie }: { ip?: string; cookie?: string } = {}) =>
  call("/api/login", { method: "POST", ip, cookie, form: { intent: "signin", email, password } });

/** The device cookie alone (no session), as a browser that signed out would still send it. */
const deviceOnly = (cookies: string) =>
  cookies
    .split("; ")
    .filter((c) => c.startsWith("__device="))
    .join("; ");

const failedChecks = (userId: string) => db().auditEvent.count({ where: { action: "account.sign_in_failed", target: `user:${userId}` } });

describe("sign-in under a parallel attack", () => {
  it("checks at most 10 of 45 wrong passwords fired at once, from one address or many", async () => {
    for (const [email, ip] of [
      ["target-one@example.com", "203.0.113.7"],
      ["target-many@example.com", undefined],
    ] as const) {
      const owner = await signUp(email);
      const responses = await Promise.all(Array.from({ length: 45 }, (_, i) => signIn(email, `wrong-guess-${i}`, { ip })));
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 400)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(35);
      for (const refused of responses.filter((r) => r.status === 429)) expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
      // Every password check that failed wrote one audit row: ten, not 42.
      expect(await failedChecks(owner.id)).toBe(10);
      const bucket = await db().rateLimitBucket.findFirstOrThrow({ where: { key: `${LIMITS.signInPerAccount.name}:${email}` } });
      expect(bucket.count).toBe(10);
    }
  });

  it("lets the owner in from a browser the account signed in from before, while other browsers stay locked", async () => {
    const owner = await signUp("besieged@example.com");
    const device = deviceOnly(owner.cookies);
    expect(device).toMatch(/^__device=/);
    await Promise.all(Array.from({ length: 45 }, (_, i) => signIn("besieged@example.com", `guess-${i}-xx`)));
    // A new browser is locked out with the attacker...
    expect((await signIn("besieged@example.com", PASSWORD)).status).toBe(429);
    // ...but the owner's own browser signs in, even from an address the attacker used.
    const mine = await signIn("besieged@example.com", PASSWORD, { cookie: device, ip: "198.51.100.1" });
    expect(mine.status).toBe(302);
    expect((await call("/api/auth/user", { cookie: cookiesFrom(mine) })).status).toBe(200);
    // A device cookie names one account: it opens no other account's lock.
    const other = await signUp("other-besieged@example.com");
    await Promise.all(Array.from({ length: 12 }, (_, i) => signIn("other-besieged@example.com", `guess-${i}-xx`)));
    expect((await signIn("other-besieged@example.com", PASSWORD, { cookie: device })).status).toBe(429);
    expect(await failedChecks(other.id)).toBe(10);
  });

  it("limits guesses from a known browser per device, without touching the account's limit", async () => {
    const owner = await signUp("stolen-cookie@example.com");
    const device = deviceOnly(owner.cookies);
    const statuses = (await Promise.all(Array.from({ length: 30 }, (_, i) => signIn("stolen-cookie@example.com", `guess-${i}-xx`, { cookie: device })))).map(
      (r) => r.status,
    );
    expect(statuses.filter((s) => s === 400)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    expect((await signIn("stolen-cookie@example.com", PASSWORD)).status).toBe(302);
  });

  it("does not count the right password", async () => {
    await signUp("regular@example.com");
    for (let i = 0; i < 12; i++) expect((await signIn("regular@example.com", PASSWORD)).status).toBe(302);
  });
});

describe("the admin gate under a parallel attack", () => {
  const gate = (cookie: string, code: string) => call("/admin-access", { method: "POST", cookie, form: { code } });

  it("checks at most 10 of 40 wrong codes fired at once", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const secret = await withTotpFactor(admin.id);
    const cookie = await sessionCookie(admin.id);
    await Promise.all(Array.from({ length: 40 }, (_, i) => gate(cookie, String(100000 + i))));
    expect(await db().auditEvent.count({ where: { actor: admin.id, action: "admin.gate_refused" } })).toBe(10);
    const limited = await gate(cookie, await totpCode(secret));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBeTruthy();
    expect((await call("/admin/payouts", { cookie })).headers.get("Location")).toBe("/admin-access");
  });

  it("does not count the right code", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const secret = await withTotpFactor(admin.id);
    const cookie = await sessionCookie(admin.id);
    await Promise.all(Array.from({ length: 9 }, (_, i) => gate(cookie, String(100000 + i))));
    // A code's step is spent once: the steps before, at and after now are three right codes in a row.
    for (const steps of [-1, 0, 1]) expect((await gate(cookie, await totpCodeAt(secret, steps))).headers.get("Location")).toBe("/admin");
  });
});

describe("sign-up under a parallel burst", () => {
  it("creates at most the hourly limit of accounts from one address", async () => {
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call("/api/login", {
          method: "POST",
          ip: "192.0.2.99",
          form: { intent: "signup", email: `flood-${i}@example.com`, password: PASSWORD, dateOfBirth: "1990-05-17", country: "GB", acceptTerms: "on" },
        }),
      ),
    );
    expect(responses.filter((r) => r.status === 302)).toHaveLength(20);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(10);
    expect(await db().user.count({ where: { email: { startsWith: "flood-" } } })).toBe(20);
  });
});

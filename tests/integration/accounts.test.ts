import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { setSuspension } from "~/services/accounts/sign-up.server";
import { call, cookiesFrom, pageText, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";
import { totpCode, withTotpFactor } from "../support/second-factor";

const signUpForm = (email: string, overrides: Record<string, string> = {}) => ({
  intent: "signup",
  email,
  password: "a-long-unusual-passphrase",
  dateOfBirth: "1990-05-17",
  country: "GB",
  acceptTerms: "on",
  ...overrides,
});

let signUps = 0;
/** Each sign-up from its own address, so the per-address sign-up limit stays out of the way. */
async function signUp(email: string, overrides: Record<string, string> = {}) {
  signUps += 1;
  return call("/api/login", { method: "POST", form: signUpForm(email, overrides), ip: `10.0.0.${signUps}` });
}

describe("sign-up", () => {
  it("creates an adult's account, signs them in and lands them where they were going", async () => {
    const response = await signUp("New.Player@Example.com", { returnTo: "/quick" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/quick");
    const cookie = cookiesFrom(response);
    expect(cookie).toMatch(/__session=/);
    expect(response.headers.get("Set-Cookie")).toMatch(/HttpOnly/i);
    expect(response.headers.get("Set-Cookie")).toMatch(/SameSite=Lax/i);
    const me = await call("/api/auth/user", { cookie });
    expect(me.status).toBe(200);
    const record = (await me.json()) as Record<string, unknown>;
    // Demo mode (no payment provider configured): new accounts get demo coins to play with.
    expect(record).toMatchObject({ email: "new.player@example.com", coinBalance: 1000, vipTier: "bronze", isAdmin: false, username: null });
    expect(Object.keys(record)).not.toContain("passwordHash");
    expect(JSON.stringify(record)).not.toMatch(/scrypt/);
  });

  it("refuses anyone under 18 with a clear message", async () => {
    const eighteenYearsAgoTomorrow = new Date();
    eighteenYearsAgoTomorrow.setUTCFullYear(eighteenYearsAgoTomorrow.getUTCFullYear() - 18);
    eighteenYearsAgoTomorrow.setUTCDate(eighteenYearsAgoTomorrow.getUTCDate() + 1);
    const response = await signUp("minor@example.com", { dateOfBirth: eighteenYearsAgoTomorrow.toISOString().slice(0, 10) });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("You must be 18 or older to play");
    expect(await db().user.count({ where: { email: "minor@example.com" } })).toBe(0);
  });

  it("refuses a date of birth that is not a real day, never storing another one", async () => {
    for (const dateOfBirth of ["1990-02-30", "2023-02-29", "1990-13-01", "-000001-01-01", "0000-01-01", "9999-99-99", "+275760-09-13", "1990-1-1"]) {
      const email = `dob-${dateOfBirth.replace(/\W/g, "")}@example.com`;
      const response = await signUp(email, { dateOfBirth });
      expect(response.status, dateOfBirth).toBe(400);
      expect(await response.text(), dateOfBirth).toContain("Enter a real date between 1900 and 9999, like 1990-02-28");
      expect(await db().user.count({ where: { email } }), dateOfBirth).toBe(0);
    }
    // The last day of February in a leap year is a real day.
    expect((await signUp("leap@example.com", { dateOfBirth: "1992-02-29" })).status).toBe(302);
    const user = await db().user.findFirstOrThrow({ where: { email: "leap@example.com" }, select: { dateOfBirth: true } });
    expect(user.dateOfBirth?.toISOString()).toBe("1992-02-29T00:00:00.000Z");
  });

  it("refuses an impossible date of birth at onboarding too", async () => {
    const newcomer = await createTestUser({ username: false });
    await db().user.update({ where: { id: newcomer.id }, data: { dateOfBirth: null, termsAcceptedAt: null, country: null } });
    const cookie = await sessionCookie(newcomer.id);
    const response = await call("/onboarding", { method: "POST", cookie, form: { dateOfBirth: "1990-02-30", country: "GB", acceptTerms: "on" } });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Enter a real date between 1900 and 9999");
    expect((await db().user.findUniqueOrThrow({ where: { id: newcomer.id } })).dateOfBirth).toBeNull();
  });

  it("allows one account per email, case-insensitively", async () => {
    expect((await signUp("twice@example.com")).status).toBe(302);
    const again = await signUp("TWICE@example.com");
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("An account with this email already exists");
  });

  it("refuses short and common passwords, and a missing Terms acceptance", async () => {
    for (const [overrides, message] of [
      [{ password: "short" }, "at least 8 characters"],
      [{ password: "password123" }, "too common"],
      [{ acceptTerms: "" }, "accept the Terms"],
    ] as const) {
      const response = await signUp(`p-${message.length}-${Math.random()}@example.com`, overrides);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain(message);
    }
  });
});

describe("sign-up limits", () => {
  it("allows 20 sign-ups an hour from one address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      const response = await call("/api/login", { method: "POST", form: signUpForm(`burst-${i}@example.com`), ip: "192.0.2.1" });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([...Array(20).fill(302), 429, 429]);
  });
});

describe("sign-in and sessions", () => {
  it("signs in with the right password, rotates the session, and refuses the wrong one", async () => {
    const first = await signUp("rotate@example.com");
    const firstCookie = cookiesFrom(first);
    const wrong = await call("/api/login", { method: "POST", form: { intent: "signin", email: "rotate@example.com", password: "not-my-password" } });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("Invalid email or password.");

    const right = await call("/api/login", {
      method: "POST",
      cookie: firstCookie,
      form: { intent: "signin", email: "Rotate@Example.com", password: "a-long-unusual-passphrase" },
    });
    expect(right.status).toBe(302);
    const secondCookie = cookiesFrom(right);
    expect(secondCookie).not.toBe(firstCookie);
    // The session the request carried was ended: rotation.
    expect((await call("/api/auth/user", { cookie: firstCookie })).status).toBe(401);
    expect((await call("/api/auth/user", { cookie: secondCookie })).status).toBe(200);
  });

  it("answers 20 wrong passwords in a row with 429 and Retry-After, even for the right one after", async () => {
    await signUp("guessed@example.com");
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 20; i++) {
      const response = await call("/api/login", { method: "POST", form: { intent: "signin", email: "guessed@example.com", password: `guess-${i}-xx` } });
      statuses.push(response.status);
      retryAfter ??= response.headers.get("Retry-After");
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    const right = await call("/api/login", { method: "POST", form: { intent: "signin", email: "guessed@example.com", password: "a-long-unusual-passphrase" } });
    expect(right.status).toBe(429);
  });

  it("never follows returnTo to another site", async () => {
    for (const returnTo of ["https://evil.example/", "//evil.example", "/\\evil.example"]) {
      const response = await signUp(`r${returnTo.length}-${Math.random()}@example.com`, { returnTo });
      expect(response.headers.get("Location")).toBe("/");
    }
  });

  it("signs out on POST, revoking the session on the server", async () => {
    const cookie = cookiesFrom(await signUp("out-post@example.com"));
    expect((await call("/api/auth/user", { cookie })).status).toBe(200);
    const out = await call("/api/logout", { method: "POST", cookie });
    expect(out.status).toBe(302);
    expect(out.headers.get("Set-Cookie")).toMatch(/__session=;/);
    // The old cookie no longer works even if the browser kept it.
    expect((await call("/api/auth/user", { cookie })).status).toBe(401);
  });

  it("answers GET with a page that asks to confirm, whose form POSTs: a link alone signs no one out", async () => {
    const cookie = cookiesFrom(await signUp("out-get@example.com"));
    const page = await call("/api/logout", { cookie });
    expect(page.status).toBe(200);
    expect(page.headers.getSetCookie().some((c) => c.startsWith("__session="))).toBe(false);
    const html = await pageText(page);
    expect(html).toContain("Sign out?");
    expect(html).toMatch(/<form[^>]*method="post"[^>]*action="\/api\/logout"/);
    expect((await call("/api/auth/user", { cookie })).status).toBe(200);
    // Nobody signed in: nothing to confirm.
    const anonymous = await call("/api/logout");
    expect([anonymous.status, anonymous.headers.get("Location")]).toEqual([302, "/"]);
  });

  it("signs out everywhere: every browser of the player", async () => {
    const player = await createTestUser();
    const [phone, laptop] = [await sessionCookie(player.id), await sessionCookie(player.id)];
    await call("/api/logout", { method: "POST", cookie: laptop, form: { everywhere: "true" } });
    expect((await call("/api/auth/user", { cookie: phone })).status).toBe(401);
    expect((await call("/api/auth/user", { cookie: laptop })).status).toBe(401);
  });

  it("signs a suspended player out on their next request, and refuses their sign-in", async () => {
    const player = await createTestUser();
    const cookie = await sessionCookie(player.id);
    expect((await call("/api/auth/user", { cookie })).status).toBe(200);
    await setSuspension(player.id, player.id, true);
    expect((await call("/api/auth/user", { cookie })).status).toBe(401);
    expect(await db().session.count({ where: { userId: player.id } })).toBe(0);
  });

  it("expires sessions", async () => {
    const player = await createTestUser();
    const cookie = await sessionCookie(player.id);
    await db().session.updateMany({ where: { userId: player.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await call("/api/auth/user", { cookie })).status).toBe(401);
  });
});

describe("usernames", () => {
  it("applies the spec's rules on the server, in order, with its messages", async () => {
    const player = await createTestUser({ username: false });
    const cookie = await sessionCookie(player.id);
    for (const [username, message] of [
      ["  ", "Username Required: Please enter a username to continue."],
      ["ab", "Username Too Short: Username must be at least 3 characters long."],
      ["a".repeat(21), "Username Too Long: Username must be less than 20 characters."],
      ["no spaces", "Invalid Username: Username can only contain letters, numbers, and underscores."],
    ]) {
      const response = await call("/api/auth/create-username", { method: "POST", cookie, json: { username } });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ message });
    }
    const ok = await call("/api/auth/create-username", { method: "POST", cookie, json: { username: "Lucky_7" } });
    expect(await ok.json()).toEqual({ success: true, username: "Lucky_7" });
  });

  it("keeps usernames unique case-insensitively, also when many claim one at once", async () => {
    const players = await Promise.all(Array.from({ length: 10 }, () => createTestUser({ username: false })));
    const cookies = await Promise.all(players.map((p) => sessionCookie(p.id)));
    const responses = await Promise.all(
      cookies.map((cookie, i) => call("/api/auth/create-username", { method: "POST", cookie, json: { username: i % 2 ? "HighRoller" : "highroller" } })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    for (const response of responses.filter((r) => r.status !== 200)) {
      expect(await response.json()).toEqual({ message: "That username is already taken. Try another one!" });
    }
  });

  it("answers the dialog's form, with or without JavaScript, with a redirect and a flash toast", async () => {
    const player = await createTestUser({ username: false });
    const cookie = await sessionCookie(player.id);
    const response = await call("/account/username", {
      method: "POST",
      cookie,
      form: { username: "x" },
      headers: { Accept: "text/html", Referer: "http://localhost/" },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    const next = await call("/", { cookie: `${cookie}; ${cookiesFrom(response)}` });
    expect(await next.text()).toContain("Username Too Short");
  });
});

describe("the admin gate", () => {
  // Enrolment, codes, replays, recovery codes and limits: tests/integration/second-factors.test.ts.
  it("opens /admin for an admin with their code, and writes every attempt to the audit log", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const secret = await withTotpFactor(admin.id);
    const cookie = await sessionCookie(admin.id);
    const wrong = await call("/admin-access", { method: "POST", cookie, form: { code: "wrong-code" } });
    expect(wrong.status).toBe(400);
    const html = await pageText(wrong);
    expect(html).toContain("Access Denied");
    expect(html).toContain("invalid credentials or insufficient privileges");
    expect((await call("/admin", { cookie })).headers.get("Location")).toBe("/admin-access");

    const right = await call("/admin-access", { method: "POST", cookie, form: { code: await totpCode(secret) } });
    expect(right.headers.get("Location")).toBe("/admin");
    expect((await call("/admin/payouts", { cookie })).status).toBe(200);
    const audit = await db().auditEvent.findMany({ where: { actor: admin.id }, orderBy: { id: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["admin.gate_refused", "admin.gate_passed"]);
  });

  it("refuses a player, whatever they type", async () => {
    const player = await createTestUser();
    const secret = await withTotpFactor(player.id);
    const cookie = await sessionCookie(player.id);
    const response = await call("/admin-access", { method: "POST", cookie, form: { code: await totpCode(secret) } });
    expect(response.status).toBe(400);
    expect((await call("/admin", { cookie })).headers.get("Location")).toBe("/admin-access");
  });

  it("closes again after 30 minutes", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const secret = await withTotpFactor(admin.id);
    const cookie = await sessionCookie(admin.id);
    expect((await call("/admin-access", { method: "POST", cookie, form: { code: await totpCode(secret) } })).headers.get("Location")).toBe("/admin");
    await db().session.updateMany({ where: { userId: admin.id }, data: { adminGatePassedAt: new Date(Date.now() - 31 * 60_000) } });
    expect((await call("/admin", { cookie })).headers.get("Location")).toBe("/admin-access");
  });
});

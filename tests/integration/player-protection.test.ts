import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalance } from "~/models/money/ledger.server";
import { excludeSelf } from "~/services/play-safety/responsible-play.server";
import { enterRaffles } from "~/models/raffles/raffle.server";
import { enterRaffle } from "~/services/raffles/raffles.server";
import { spinWheel } from "~/services/rewards/rewards.server";
import { codeOf } from "../support/outcomes";
import { call, cookiesFrom, gatedAdmin, pageText, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";

/**
 * Where players may sign up, limits offered at sign-up and before the first purchase,
 * the reality check, and what the back office may see and do.
 * (The configuration here is demo mode's: GB, IE, MT, CA-ON, US-NJ, US-PA.)
 */
let signUps = 0;
async function signUp(email: string, fields: Record<string, string>) {
  signUps += 1;
  return call("/api/login", {
    method: "POST",
    ip: `10.9.0.${signUps}`,
    form: { intent: "signup", email, password: "a-long-unusual-passphrase", dateOfBirth: "1990-05-17", acceptTerms: "on", ...fields },
  });
}

const stored = (email: string) =>
  db().user.findUnique({ where: { email }, select: { id: true, country: true, region: true, depositLimits: { select: { period: true, amountCents: true } } } });

describe("allowed jurisdictions at sign-up", () => {
  it("takes players from an allowed country, or an allowed region of a region-limited one", async () => {
    expect((await signUp("gb@example.com", { country: "GB" })).status).toBe(302);
    expect(await stored("gb@example.com")).toMatchObject({ country: "GB", region: null });
    expect((await signUp("nj@example.com", { country: "US", region: "US-NJ" })).status).toBe(302);
    expect(await stored("nj@example.com")).toMatchObject({ country: "US", region: "US-NJ" });
  });

  it("refuses other countries and regions with a clear message, creating nothing", async () => {
    for (const [fields, message] of [
      [{ country: "FR" }, "Sorry, Raffle Rush is not available in France."],
      [{ country: "US", region: "US-TX" }, "Sorry, in United States Raffle Rush is only available in New Jersey and Pennsylvania."],
      [{ country: "US", region: "US-OTHER" }, "only available in New Jersey and Pennsylvania"],
      [{ country: "US" }, "only available in New Jersey and Pennsylvania"],
      [{ country: "CA", region: "US-NJ" }, "Sorry, in Canada Raffle Rush is only available in Ontario."],
      [{}, "Choose the country where you live."],
      [{ country: "Narnia" }, "Choose the country where you live."],
    ] as const) {
      const email = `refused-${signUps}@example.com`;
      const response = await signUp(email, fields);
      expect(response.status).toBe(400);
      expect(await pageText(response)).toContain(message);
      expect(await stored(email)).toBeNull();
    }
  });

  it("asks a player who signed in through an identity provider for their country too", async () => {
    const user = await createTestUser();
    await db().user.update({ where: { id: user.id }, data: { country: null } });
    const cookie = await sessionCookie(user.id);
    expect((await call("/quick", { cookie })).headers.get("Location")).toBe("/onboarding?returnTo=%2Fquick");
    const refused = await call("/onboarding", {
      method: "POST",
      cookie,
      form: { dateOfBirth: "1990-01-01", country: "US", region: "US-TX", acceptTerms: "on" },
    });
    expect(refused.status).toBe(400);
    expect(await pageText(refused)).toContain("only available in New Jersey and Pennsylvania");
    const done = await call("/onboarding", { method: "POST", cookie, form: { dateOfBirth: "1990-01-01", country: "US", region: "US-PA", acceptTerms: "on" } });
    expect(done.status).toBe(302);
    expect(await db().user.findUnique({ where: { id: user.id }, select: { country: true, region: true } })).toEqual({ country: "US", region: "US-PA" });
  });
});

describe("deposit limits offered at sign-up and before the first purchase", () => {
  it("sets the limits given at sign-up at once, and refuses a bad one without creating the account", async () => {
    expect((await signUp("limits@example.com", { country: "GB", limitDay: "50", limitMonth: "500.5" })).status).toBe(302);
    const user = await stored("limits@example.com");
    expect(user!.depositLimits.sort((a, b) => a.period.localeCompare(b.period))).toEqual([
      { period: "day", amountCents: 5000 },
      { period: "month", amountCents: 50050 },
    ]);

    const bad = await signUp("bad-limit@example.com", { country: "GB", limitWeek: "lots" });
    expect(bad.status).toBe(400);
    expect(await pageText(bad)).toContain("Enter a limit in dollars, like 50 or 25.50");
    expect(await stored("bad-limit@example.com")).toBeNull();
  });

  it("offers limits on the checkout page until the player has one or has bought coins", async () => {
    const player = await createTestUser();
    const cookie = await sessionCookie(player.id);
    expect(await pageText(await call("/checkout?package=package_2", { cookie }))).toContain("Before your first purchase: set a deposit limit?");

    const saved = await call("/responsible-play", {
      method: "POST",
      cookie,
      form: { intent: "limits", returnTo: "/checkout?package=package_2", limitDay: "", limitWeek: "20", limitMonth: "" },
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/checkout?package=package_2");
    expect(await db().depositLimit.findMany({ where: { userId: player.id }, select: { period: true, amountCents: true } })).toEqual([
      { period: "week", amountCents: 2000 },
    ]);
    expect(await pageText(await call("/checkout?package=package_2", { cookie }))).not.toContain("Before your first purchase");

    const buyer = await createTestUser();
    await db().payment.create({
      data: {
        userId: buyer.id,
        provider: "demo",
        providerPaymentId: `demo_${buyer.id}`,
        purpose: "coins",
        product: "package_2",
        amountCents: 499,
        status: "succeeded",
        settledAt: new Date(),
      },
    });
    expect(await pageText(await call("/checkout?package=package_2", { cookie: await sessionCookie(buyer.id) }))).not.toContain("Before your first purchase");
  });

  it("refuses an empty or malformed offer form with a message, changing nothing", async () => {
    const player = await createTestUser();
    const cookie = await sessionCookie(player.id);
    const forms: Record<string, string>[] = [
      { intent: "limits" },
      { intent: "limits", limitDay: "-5" },
      { intent: "limits", limitDay: "0" },
      { intent: "limits", limitDay: "99999999999" },
    ];
    for (const form of forms) {
      const response = await call("/responsible-play", { method: "POST", cookie, form });
      expect(response.status).toBe(302);
      expect(cookiesFrom(response)).toMatch(/toast/);
    }
    expect(await db().depositLimit.count({ where: { userId: player.id } })).toBe(0);
  });
});

describe("the reality check", () => {
  async function playing(minutesAgo: number) {
    const player = await createTestUser({ coins: 10_000n });
    const cookie = await sessionCookie(player.id);
    await db().session.updateMany({
      where: { userId: player.id },
      data: { playStartedAt: new Date(Date.now() - minutesAgo * 60_000), playSeenAt: new Date() },
    });
    return { player, cookie };
  }
  const state = async (cookie: string) =>
    (await (await call("/api/reality-check", { cookie })).json()) as {
      startedAt: string;
      reality: { due: boolean; dueAt: string; netCoins: number; intervalMinutes: number } | null;
    };

  it("is off until the player chooses an interval, and refuses other intervals", async () => {
    const { player, cookie } = await playing(90);
    expect((await state(cookie)).reality).toBeNull();
    expect(await pageText(await call("/", { cookie }))).not.toContain("Reality check");
    const refused = await call("/responsible-play", { method: "POST", cookie, form: { intent: "reality", minutes: "5" } });
    expect(refused.status).toBe(400);
    expect(await pageText(refused)).toContain("Choose off, 15, 30 or 60 minutes");
    expect((await db().user.findUniqueOrThrow({ where: { id: player.id } })).realityCheckMinutes).toBeNull();
    await call("/responsible-play", { method: "POST", cookie, form: { intent: "reality", minutes: "30" } });
    expect((await db().user.findUniqueOrThrow({ where: { id: player.id } })).realityCheckMinutes).toBe(30);
    expect((await state(cookie)).reality).toMatchObject({ intervalMinutes: 30, due: true });
  });

  it("reminds after the interval with the session's length and net result, and 'Keep playing' starts the next interval", async () => {
    const { player, cookie } = await playing(10);
    await db().user.update({ where: { id: player.id }, data: { realityCheckMinutes: 15 } });
    const before = await state(cookie);
    expect(before.reality).toMatchObject({ due: false, netCoins: 0 });
    expect(Date.parse(before.reality!.dueAt) - Date.parse(before.startedAt)).toBe(15 * 60_000);

    const raffle = await createTestRaffle({ entryPrice: 25n });
    await enterRaffle({ userId: player.id, raffleId: raffle.id, tickets: 2 });
    // Five more minutes of play, as the clock would have it.
    await db().session.updateMany({ where: { userId: player.id }, data: { playStartedAt: new Date(Date.now() - 16 * 60_000) } });

    const page = await pageText(await call("/quick", { cookie }));
    expect(page).toContain("Reality check");
    expect(page).toMatch(/You have been playing for <strong>16 min<\/strong>/);
    expect(page).toContain("−50 coins");
    expect(page).toContain('href="/history"');
    expect(page).toContain('href="/api/logout"');

    const dismissed = await call("/reality-check", { method: "POST", cookie, form: {}, headers: { Referer: "http://localhost/quick" } });
    expect(dismissed.status).toBe(302);
    expect(dismissed.headers.get("Location")).toBe("/quick");
    const after = await state(cookie);
    expect(after.reality!.due).toBe(false);
    expect(Date.parse(after.reality!.dueAt)).toBeGreaterThan(Date.now() + 14 * 60_000);
    // Dismissing a reminder does not restart the stretch of play.
    expect(Date.now() - Date.parse(after.startedAt)).toBeGreaterThanOrEqual(16 * 60_000);
    expect(await pageText(await call("/quick", { cookie }))).not.toContain("Reality check");
  });

  it("starts a new stretch of play after 30 minutes without a request", async () => {
    const { player, cookie } = await playing(120);
    await db().session.updateMany({
      where: { userId: player.id },
      data: { playSeenAt: new Date(Date.now() - 31 * 60_000), realityCheckAt: new Date(Date.now() - 40 * 60_000) },
    });
    const { startedAt } = await state(cookie);
    expect(Date.now() - Date.parse(startedAt)).toBeLessThan(60_000);
    const session = await db().session.findFirstOrThrow({ where: { userId: player.id } });
    expect(session.realityCheckAt).toBeNull();
  });

  it("shows the elapsed session time on every player page", async () => {
    const { cookie } = await playing(65);
    expect(await pageText(await call("/", { cookie }))).toMatch(/data-testid="session-clock"[^>]*>.*1:0[45]:\d\d/);
  });
});

describe("the back office and a player's protections", () => {
  const extend = (cookie: string, userId: string, choice: string) => call(`/api/admin/users/${userId}/exclusion`, { method: "POST", cookie, json: { choice } });

  it("shows each player's limits, pending changes, breaks and reality check, read-only", async () => {
    const admin = await gatedAdmin();
    const player = await createTestUser();
    await call("/responsible-play", { method: "POST", cookie: await sessionCookie(player.id), form: { intent: "limit", period: "day", amount: "40" } });
    await call("/responsible-play", { method: "POST", cookie: await sessionCookie(player.id), form: { intent: "limit", period: "day", amount: "80" } });
    await db().user.update({ where: { id: player.id }, data: { realityCheckMinutes: 60 } });
    await excludeSelf(player.id, "7d");
    const page = await pageText(await call(`/admin/users?q=${player.username}`, { cookie: admin.cookie }));
    expect(page).toContain("On a break until");
    expect(page).toMatch(/24-hour limit: \$40\.00 \(pending \$80\.00 from \d{4}-\d\d-\d\d \d\d:\d\d UTC\)/);
    expect(page).toContain("Reality check every 60 min");
    expect(page).toContain(`action="/admin/users/${player.id}/exclusion"`);
  });

  it("lets an admin only lengthen a running break or exclusion, auditing it", async () => {
    const admin = await gatedAdmin();
    const player = await createTestUser();
    const idle = await extend(admin.cookie, player.id, "1y");
    expect(idle.status).toBe(400);
    expect(((await idle.json()) as { message: string }).message).toContain("Only the player can start one");
    expect((await db().user.findUniqueOrThrow({ where: { id: player.id } })).excludedUntil).toBeNull();

    await excludeSelf(player.id, "30d");
    const shorter = await extend(admin.cookie, player.id, "7d");
    expect(shorter.status).toBe(400);
    expect(((await shorter.json()) as { message: string }).message).toContain("That would not extend it");

    const longer = await extend(admin.cookie, player.id, "1y");
    expect(longer.status).toBe(200);
    const after = await db().user.findUniqueOrThrow({ where: { id: player.id } });
    expect(after.exclusionKind).toBe("self_exclusion");
    expect(after.excludedUntil!.getTime()).toBeGreaterThan(Date.now() + 364 * 86_400_000);
    const audit = await db().auditEvent.findFirstOrThrow({ where: { action: "responsible.extend_exclusion", target: `user:${player.id}` } });
    expect(audit.actor).toBe(admin.id);

    expect((await extend(admin.cookie, player.id, "forever")).status).toBe(400);
    const player2 = await createTestUser();
    expect((await extend(await sessionCookie(player2.id), player.id, "5y")).status).toBe(403);
  });
});

describe("a place the site stops serving after players signed up there", () => {
  // As if the operator had taken the place out of ALLOWED_COUNTRIES: the player's recorded
  // home is no longer one the configuration allows (here demo mode's, see the top).
  const moveTo = (userId: string, country: string | null, region: string | null = null) =>
    db().user.update({ where: { id: userId }, data: { country, region } });

  it("refuses entries by country or by region within one batch, the others in it going through", async () => {
    const raffle = await createTestRaffle({ entryPrice: 5n, maxTicketsPerPlayer: 100 });
    const homes = [
      ["GB", null],
      ["FR", null],
      ["US", "US-NJ"],
      ["US", "US-TX"],
      ["US", null],
      ["FR", "US-NJ"],
      [null, "US-NJ"],
    ] as const;
    const players = await Promise.all(homes.map(() => createTestUser({ coins: 100n })));
    await Promise.all(players.map((p, i) => moveTo(p.id, homes[i]![0], homes[i]![1])));
    const rules = {
      limitName: "test-jurisdiction",
      limitMax: 10,
      playIdleGapMs: 30 * 60_000,
      countries: ["GB", "MT"],
      regions: ["US-NJ", "US-PA"],
      verifyCountries: [],
    };
    const rows = await enterRaffles(
      players.map((p) => ({ userId: p.id, raffleId: raffle.id, tickets: 2, now: new Date() })),
      rules,
    );
    expect(rows.map((r) => r.outcome)).toEqual(["ok", "jurisdiction", "ok", "jurisdiction", "jurisdiction", "jurisdiction", "jurisdiction"]);
    expect(rows.map((r) => r.firstPosition)).toEqual([0, null, 2, null, null, null, null]);
    expect(await Promise.all(players.map((p) => userBalance(p.id)))).toEqual([90n, 100n, 90n, 100n, 100n, 100n, 100n]);
    expect(await db().entry.count({ where: { raffleId: raffle.id } })).toBe(4);
    // Through the service, with the configuration in force (demo mode's), the same refusal.
    await expect(codeOf(enterRaffle({ userId: players[1]!.id, raffleId: raffle.id }))).resolves.toBe("jurisdiction");
    await expect(codeOf(enterRaffle({ userId: players[2]!.id, raffleId: raffle.id }))).resolves.toBe("ok");
  });

  it("refuses, in the batch itself, an unverified player from a country that asks for identity first", async () => {
    const raffle = await createTestRaffle({ entryPrice: 5n });
    const players = await Promise.all([
      createTestUser({ coins: 100n, country: "GB", identityVerified: false }),
      createTestUser({ coins: 100n, country: "GB" }),
      createTestUser({ coins: 100n, country: "IE", identityVerified: false }),
    ]);
    const rules = { limitName: "test-identity", limitMax: 10, playIdleGapMs: 30 * 60_000, countries: ["GB", "IE"], regions: [], verifyCountries: ["GB"] };
    const rows = await enterRaffles(
      players.map((p) => ({ userId: p.id, raffleId: raffle.id, tickets: 1, now: new Date() })),
      rules,
    );
    expect(rows.map((r) => r.outcome)).toEqual(["identity_required", "ok", "ok"]);
    expect(await Promise.all(players.map((p) => userBalance(p.id)))).toEqual([100n, 95n, 95n]);
    // Through the service, with JURISDICTION_RULES in force, the same refusal.
    await expect(codeOf(enterRaffle({ userId: players[0]!.id, raffleId: raffle.id }))).resolves.toBe("identity_required");
  });

  it("stops play, purchases and offers with a clear 403, and still lets the player see the balance and withdraw", async () => {
    const player = await createTestUser({ cash: 5000n });
    const raffle = await createTestRaffle({ entryPrice: 5n });
    const quick = await createTestRaffle({ kind: "quick", entryPrice: 5n });
    await moveTo(player.id, "FR");
    const cookie = await sessionCookie(player.id);
    const closed = "Raffle Rush is no longer available where you live. Playing and buying are closed; you can still see your balance and withdraw.";

    for (const [path, json] of [
      [`/api/raffles/${raffle.id}/enter`, {}],
      [`/api/quick-raffles/${quick.id}/enter`, {}],
      ["/api/daily-spin", {}],
      ["/api/vip/claim-daily-bonus", {}],
      ["/api/create-payment-intent", { packageId: "package_1" }],
      ["/api/vip/subscribe", { tier: "gold" }],
    ] as const) {
      const response = await call(path, { method: "POST", cookie, json });
      expect(response.status, path).toBe(403);
      expect(await response.json(), path).toEqual({ message: closed });
    }
    await expect(codeOf(spinWheel(player.id))).resolves.toBe("jurisdiction");
    expect(await userBalance(player.id)).toBe(5000n);
    expect(await db().payment.count({ where: { userId: player.id } })).toBe(0);

    const home = await pageText(await call("/", { cookie }));
    expect(home).toContain('data-testid="paused-notice"');
    expect(home).toContain("Raffle Rush is no longer available where you live.");
    expect(home).not.toContain('href="/checkout?package=');
    expect(home).not.toContain('id="coin-store"');
    expect(home).not.toContain("Join VIP");
    expect(await pageText(await call("/quick", { cookie }))).not.toContain("Buy coins");
    expect(await pageText(await call("/vip", { cookie }))).not.toContain('href="/vip/checkout?tier=');
    const checkout = await call("/vip/checkout?tier=gold", { cookie });
    expect(checkout.status).toBe(302);
    expect(checkout.headers.get("Location")).toBe("/vip");

    const withdraw = await call("/api/withdraw", { method: "POST", cookie, json: { amount: 10, method: "venmo", accountInfo: "still-me" } });
    expect(withdraw.status).toBe(200);
    expect(await userBalance(player.id)).toBe(4000n);

    // The back office sees why.
    const admin = await gatedAdmin();
    const users = await pageText(await call(`/admin/users?q=${player.username}`, { cookie: admin.cookie }));
    expect(users).toContain("FR · place not served: play and buying closed");
    const served = await createTestUser();
    expect(await pageText(await call(`/admin/users?q=${served.username}`, { cookie: admin.cookie }))).not.toContain("place not served");
  });
});

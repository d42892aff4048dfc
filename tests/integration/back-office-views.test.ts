import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { enterRaffle, drawDueRaffles } from "~/services/raffles/raffles.server";
import { revenueOverTime } from "~/services/back-office/revenue.server";
import { requestWithdrawal } from "~/services/money/withdrawals.server";
import { call, gatedAdmin, pageText } from "../support/app";
import { createTestRaffle, createTestUser, withdrawCash } from "../support/factories";

type AuditPage = {
  rows: { id: string; actor: string; actorId: string; actorKind: string; action: string; targetName: string }[];
  older: string | null;
  newer: string | null;
};
const auditPage = async (cookie: string, query = "") => {
  const response = await call(`/api/admin/audit${query}`, { cookie });
  expect(response.status).toBe(200);
  return (await response.json()) as AuditPage;
};

describe("the audit log", () => {
  it("pages through every row by cursor, past the 200 the log used to stop at", async () => {
    const admin = await gatedAdmin();
    const action = `test.page_${randomBytes(3).toString("hex")}`;
    await db().auditEvent.createMany({ data: Array.from({ length: 230 }, (_, i) => ({ actor: "system", action, target: `n:${i}` })) });
    const seen: string[] = [];
    let query = `?action=${action}`;
    for (let pages = 0; pages < 10; pages++) {
      const page = await auditPage(admin.cookie, query);
      seen.push(...page.rows.map((r) => r.id));
      if (!page.older) break;
      query = `?action=${action}&before=${page.older}`;
    }
    expect(seen).toHaveLength(230);
    expect(new Set(seen).size).toBe(230);
    expect(seen.map(Number)).toEqual([...seen.map(Number)].sort((a, b) => b - a));
    // And back: the page before the oldest one, by the "newer" cursor.
    const last = await auditPage(admin.cookie, query);
    const previous = await auditPage(admin.cookie, `?action=${action}&after=${last.newer}`);
    expect(previous.rows).toHaveLength(50);
    expect(Number(previous.rows.at(-1)!.id)).toBeGreaterThan(Number(last.rows[0]!.id));
  });

  it("filters by who acted, action, target and date, and names players, withdrawals and raffles", async () => {
    const admin = await gatedAdmin();
    const [a, b] = [await createTestUser({ coins: 100n }), await createTestUser({ coins: 100n })];
    const raffle = await createTestRaffle();
    await enterRaffle({ userId: a.id, raffleId: raffle.id });
    await enterRaffle({ userId: b.id, raffleId: raffle.id });
    await call(`/api/admin/raffles/${raffle.id}/complete`, { method: "POST", cookie: admin.cookie, json: {} });
    await call(`/api/admin/users/${a.id}/suspend`, { method: "POST", cookie: admin.cookie, json: { suspended: true } });
    // The scheduler's cancellations, many of them, must not bury the admin's actions.
    await db().auditEvent.createMany({
      data: Array.from({ length: 120 }, () => ({ actor: "system", action: "raffle.cancel", target: `raffle:${raffle.id}` })),
    });

    const admins = await auditPage(admin.cookie, "?actor=admin");
    const mine = admins.rows.filter((r) => r.actorId === admin.id);
    expect(mine.map((r) => r.action)).toEqual(expect.arrayContaining(["raffle.complete_early", "user.suspend"]));
    expect(admins.rows.every((r) => r.actorKind === "admin")).toBe(true);
    expect(mine[0]!.actor).toBe(admin.username);
    expect(admins.rows.find((r) => r.action === "user.suspend" && r.actorId === admin.id)!.targetName).toBe(`player ${a.username}`);

    const system = await auditPage(admin.cookie, "?actor=system&action=raffle.cancel");
    expect(system.rows.length).toBeGreaterThan(0);
    expect(system.rows.every((r) => r.actorKind === "system" && r.action === "raffle.cancel")).toBe(true);
    expect(system.rows[0]!.targetName).toMatch(/^regular raffle micro \$0\.05 \(/);

    const players = await auditPage(admin.cookie, `?actor=player&target=raffle:${raffle.id}`);
    expect(players.rows.map((r) => r.actor).sort()).toEqual([a.username, b.username].sort());
    expect(players.rows.every((r) => r.action === "raffle.enter")).toBe(true);

    // A target by the player's email or a bare id; the action's family ("user").
    expect((await auditPage(admin.cookie, `?target=${encodeURIComponent(a.email)}&action=user`)).rows.map((r) => r.action)).toEqual(["user.suspend"]);
    expect((await auditPage(admin.cookie, `?target=${a.id}&actor=admin`)).rows.map((r) => r.action)).toEqual(["user.suspend"]);

    const today = new Date().toISOString().slice(0, 10);
    expect((await auditPage(admin.cookie, `?actor=admin&from=${today}&to=${today}`)).rows.length).toBeGreaterThan(0);
    expect((await auditPage(admin.cookie, "?actor=admin&to=2000-01-01")).rows).toEqual([]);

    for (const bad of ["?actor=robot", "?from=2026-02-30", "?before=abc", "?action=DROP%20TABLE"]) {
      expect((await call(`/api/admin/audit${bad}`, { cookie: admin.cookie })).status).toBe(400);
      expect((await call(`/admin/audit${bad}`, { cookie: admin.cookie })).status).toBe(400);
    }
    const page = await pageText(await call("/admin/audit?actor=admin", { cookie: admin.cookie }));
    expect(page).toContain(`player ${a.username}`);
    expect(page).not.toContain(admin.id.slice(0, 8) + "<");
  });
});

describe("the raffles tab", () => {
  it("hides rounds cancelled without entries unless asked, and shows each round's times and outcome", async () => {
    const admin = await gatedAdmin();
    const [a, b] = [await createTestUser({ coins: 100n }), await createTestUser({ coins: 100n })];
    const ends = new Date(Date.now() + 2000);
    const empty = await createTestRaffle({ kind: "quick", tier: "lightning", endsAt: ends });
    const lonely = await createTestRaffle({ kind: "quick", tier: "bolt", endsAt: ends });
    const played = await createTestRaffle({ kind: "quick", tier: "flash", endsAt: ends });
    await enterRaffle({ userId: a.id, raffleId: lonely.id });
    await enterRaffle({ userId: a.id, raffleId: played.id });
    await enterRaffle({ userId: b.id, raffleId: played.id });
    await drawDueRaffles(new Date(ends.getTime() + 1000));

    type Row = { id: string; status: string; tier: string; startTime: string; endTime: string; drawnAt: string | null; outcome: string };
    const list = async (query: string) => (await (await call(`/api/admin/raffles${query}`, { cookie: admin.cookie })).json()) as Row[];
    const shown = await list("");
    expect(shown.map((r) => r.id)).not.toContain(empty.id);
    expect(shown.find((r) => r.id === lonely.id)).toMatchObject({
      status: "cancelled",
      outcome: "cancelled: 1 player, 1 ticket refunded",
      drawnAt: expect.any(String),
    });
    expect(shown.find((r) => r.id === played.id)!.outcome).toMatch(/^p_\w+ won \$0\.0\d$/);
    expect((await list("?empty=1")).find((r) => r.id === empty.id)).toMatchObject({ outcome: "cancelled: no entries", tier: "lightning" });

    const page = await pageText(await call("/admin/raffles", { cookie: admin.cookie }));
    expect(page).toContain(lonely.id.slice(0, 8));
    expect(page).not.toContain(empty.id.slice(0, 8));
    expect(page).toContain("Show empty cancelled rounds");
    expect(await pageText(await call("/admin/raffles?empty=1", { cookie: admin.cookie }))).toContain(empty.id.slice(0, 8));
  });
});

describe("revenue over time", () => {
  it("sums money in per day, week and month, refunds and disputes taken off, and draws it as SVG on the server", async () => {
    const admin = await gatedAdmin();
    const player = await createTestUser();
    const now = new Date("2026-11-25T12:00:00Z");
    const paid = (at: string, amountCents: number, refundedCents = 0, disputedCents = 0) =>
      db().payment.create({
        data: {
          userId: player.id,
          provider: "demo",
          providerPaymentId: `rev-${randomBytes(6).toString("hex")}`,
          purpose: "coins",
          product: "package_1",
          amountCents,
          refundedCents,
          disputedCents,
          status: "succeeded",
          settledAt: new Date(at),
        },
      });
    const before = await revenueOverTime("daily", now);
    await paid("2026-11-25T01:00:00Z", 999);
    await paid("2026-11-25T23:59:00Z", 499, 100);
    await paid("2026-11-24T10:00:00Z", 2499, 0, 2499);
    await paid("2026-11-23T10:00:00Z", 999);
    await paid("2026-10-05T10:00:00Z", 499);
    const delta = (after: { points: { start: string; cents: number }[] }, earlier: { points: { start: string; cents: number }[] }) =>
      after.points.map((p, i) => p.cents - earlier.points[i]!.cents);

    const daily = await revenueOverTime("daily", now);
    expect(daily.points).toHaveLength(30);
    expect(daily.points.at(-1)!.start).toBe("2026-11-25T00:00:00.000Z");
    expect(delta(daily, before).slice(-3)).toEqual([999, 0, 999 + 399]);

    const weekly = await revenueOverTime("weekly", now);
    expect(weekly.points.at(-1)!.start).toBe("2026-11-23T00:00:00.000Z"); // a Monday
    const monthly = await revenueOverTime("monthly", now);
    expect(monthly.points.map((p) => p.start.slice(0, 7)).slice(-2)).toEqual(["2026-10", "2026-11"]);

    const page = await pageText(await call("/admin/payouts?revenue=weekly", { cookie: admin.cookie }));
    expect(page).toMatch(/<svg[^>]*role="img"/);
    expect(page.match(/data-testid="revenue-bar"/g)).toHaveLength(12);
    expect((await pageText(await call("/admin/users?revenue=monthly", { cookie: admin.cookie }))).match(/data-testid="revenue-bar"/g)).toHaveLength(12);
    expect((await pageText(await call("/admin/ledger", { cookie: admin.cookie }))).match(/data-testid="revenue-bar"/g)).toHaveLength(30);
  });

  it("shows negative money with a true minus before the dollar sign", async () => {
    const admin = await gatedAdmin();
    // Paid out more than came in by card: the profit is negative.
    const player = await createTestUser({ cash: 10_000_000n });
    await withdrawCash(player.id, 10_000_000n);
    const page = await pageText(await call("/admin/ledger", { cookie: admin.cookie }));
    expect(page).toMatch(/Profit \(revenue − paid out\)<\/dt><dd[^>]*>\u2212\$[\d,]+\.\d\d</);
    expect(page).not.toMatch(/\$-\d/);
  });
});

describe("the tabs at addresses of their own (ADR 043)", () => {
  const TABS = {
    payouts: { section: "Payouts", title: "Payouts" },
    users: { section: "Users", title: "Players" },
    raffles: { section: "Raffles", title: "Raffles" },
    audit: { section: "Audit log", title: "Audit log" },
    ledger: { section: "Ledger reconciliation", title: "Ledger" },
  };

  it("shows each tab at /admin/<tab>: the overview, the tab's own section and title, its link marked current", async () => {
    const admin = await gatedAdmin();
    for (const [tab, { section, title }] of Object.entries(TABS)) {
      const response = await call(`/admin/${tab}`, { cookie: admin.cookie });
      expect(response.status, tab).toBe(200);
      const page = await pageText(response);
      expect(page, tab).toContain('data-testid="overview"');
      expect(page, tab).toContain(`<title>${title} — Admin — Raffle Rush</title>`);
      expect(page, tab).toContain(`<section aria-label="${section}"`);
      for (const other of Object.values(TABS)) if (other.section !== section) expect(page, tab).not.toContain(`<section aria-label="${other.section}"`);
      const nav = page.match(/<nav aria-label="Admin sections"[\s\S]*?<\/nav>/)?.[0] ?? "";
      for (const link of Object.keys(TABS)) {
        const anchor = nav.match(new RegExp(`<a [^>]*href="/admin/${link}"[^>]*>`))?.[0];
        expect(anchor?.includes('aria-current="page"'), `${tab}: the ${link} link`).toBe(link === tab);
      }
    }
  });

  it("sends /admin to the first tab, and an old /admin?tab= address to the tab's own with its other parameters", async () => {
    const admin = await gatedAdmin();
    const cases = {
      "/admin": "/admin/payouts",
      "/admin?tab=users&q=ann&page=2": "/admin/users?q=ann&page=2",
      "/admin?tab=audit&actor=admin&revenue=weekly": "/admin/audit?actor=admin&revenue=weekly",
      "/admin?tab=raffles&empty=1": "/admin/raffles?empty=1",
      "/admin?tab=ledger": "/admin/ledger",
      "/admin?tab=payouts": "/admin/payouts",
      "/admin?revenue=monthly": "/admin/payouts?revenue=monthly",
      "/admin?tab=nope&q=x": "/admin/payouts?q=x",
    };
    for (const [old, now] of Object.entries(cases)) {
      const response = await call(old, { cookie: admin.cookie });
      expect(response.status, old).toBe(302);
      expect(response.headers.get("Location"), old).toBe(now);
    }
    // A bad filter on the tab's own address: the tab says why, as a 400, as it did under ?tab=audit.
    const bad = await call("/admin/audit?actor=robot", { cookie: admin.cookie });
    expect(bad.status).toBe(400);
    expect(await pageText(bad)).toMatch(/<section aria-label="Audit log"[\s\S]*<p role="alert"/);
  });

  it("keeps the form actions under /admin/payouts/... apart from the payouts tab", async () => {
    const admin = await gatedAdmin();
    const payee = await createTestUser({ cash: 100_000n });
    const { id } = await requestWithdrawal(payee.id, { amount: "20", method: "venmo", fields: { username: "payee" } });
    for (const path of [`/admin/payouts/${id}/approve`, `/admin/payouts/${id}/reject`]) {
      expect((await call(path, { cookie: admin.cookie })).status, path).toBe(404);
    }
    // Two are steps of their own: bulk approval's confirmation, and the transfer step (back to the tab when nothing waits).
    expect((await call("/admin/payouts/bulk-approve?maxAmount=50", { cookie: admin.cookie })).status).toBe(200);
    expect((await call(`/admin/payouts/${id}/transfer`, { cookie: admin.cookie })).headers.get("Location")).toBe("/admin/payouts");
    const back = "http://localhost/admin/payouts?revenue=weekly";
    const approved = await call(`/admin/payouts/${id}/approve`, { method: "POST", cookie: admin.cookie, form: {}, headers: { Referer: back } });
    expect(approved.headers.get("Location")).toBe("/admin/payouts?revenue=weekly");
    expect((await db().withdrawal.findUniqueOrThrow({ where: { id } })).status).not.toBe("pending");
  });

  it("reads the users tab's page number within bounds, on the page and in the API (found by the fuzz: a page past 2^53 was a 500)", async () => {
    const admin = await gatedAdmin();
    for (const [asked, page] of [
      ["18446744073709552000", 10_000],
      ["1e400", 1],
      ["-5", 0],
      ["abc", 0],
      ["2", 2],
    ] as const) {
      const api = await call(`/api/admin/users?q=nobody-at-all&page=${asked}`, { cookie: admin.cookie });
      expect(api.status).toBe(200);
      expect(await api.json()).toMatchObject({ page, total: 0, users: [] });
      const tab = await call(`/admin/users?q=nobody-at-all&page=${asked}`, { cookie: admin.cookie });
      expect(tab.status).toBe(200);
    }
  });

  it("keeps the back office around a tab that fails, the tab saying why", async () => {
    const admin = await gatedAdmin();
    const response = await call("/admin/users?q=a%00b", { cookie: admin.cookie });
    expect(response.status).toBe(400);
    const page = await pageText(response);
    expect(page).toContain("Admin dashboard");
    expect(page).toContain('data-testid="overview"');
    expect(page).toContain('data-testid="section-error"');
    expect(page).toContain("The search could not be run");
    expect(page).not.toContain('data-testid="route-error"');
  });
});

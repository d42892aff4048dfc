import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalance, userBalances } from "~/models/money/ledger.server";
import { approvePayout, rejectPayout } from "~/services/back-office/admin.server";
import { DomainError } from "~/shared/domain-error";
import { enterRaffle } from "~/services/raffles/raffles.server";
import { requestWithdrawal } from "~/services/money/withdrawals.server";
import { readToast } from "~/web/toast.server";
import { call, cookiesFrom, gatedAdmin, pageText, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser, grantCoins } from "../support/factories";

async function pendingPayout(dollars: string, cash = 100_000n) {
  const player = await createTestUser({ cash, identityVerified: false });
  const { id } = await requestWithdrawal(player.id, { amount: dollars, method: "venmo", fields: { username: "winner" } });
  return { player, id };
}

const post = (path: string, cookie: string, json: unknown = path.endsWith("/verify") ? { reason: "passport seen by support" } : {}) =>
  call(path, { method: "POST", cookie, json });

describe("the back office", () => {
  it("approves a payout (processing until its transfer's reference is recorded, then completed) and rejects one (the hold returns; the player sees failed and why)", async () => {
    const admin = await gatedAdmin();
    const a = await pendingPayout("20");
    const b = await pendingPayout("30");
    expect(await (await post(`/api/admin/payouts/${a.id}/approve`, admin.cookie)).json()).toEqual({ status: "processing" });
    expect(await (await post(`/api/admin/payouts/${b.id}/reject`, admin.cookie, { reason: "Name does not match the account" })).json()).toEqual({
      status: "rejected",
    });
    expect(await userBalance(a.player.id)).toBe(98_000n);
    expect(await userBalance(b.player.id)).toBe(100_000n);
    const list = (await (await call("/api/withdrawals", { cookie: await sessionCookie(b.player.id) })).json()) as { status: string; reason: string }[];
    expect(list[0]).toMatchObject({ status: "failed", reason: "Name does not match the account" });
    const payoutsBefore = (await db().ledgerAccount.findFirstOrThrow({ where: { kind: "payouts" } })).balance;
    const mine = (await (await call("/api/withdrawals", { cookie: await sessionCookie(a.player.id) })).json()) as { status: string }[];
    expect(mine[0]!.status).toBe("processing");

    // An API client finds the transfer to record by listing them.
    const awaiting = async () =>
      ((await (await call("/api/admin/transfers", { cookie: admin.cookie })).json()) as { withdrawalId: string }[]).filter((t) => t.withdrawalId === a.id);
    expect(await awaiting()).toEqual([expect.objectContaining({ withdrawalId: a.id, amount: "20.00" })]);
    expect(await (await post(`/api/admin/payouts/${a.id}/transfer`, admin.cookie, { reference: "VENMO-4471" })).json()).toEqual({ status: "completed" });
    expect(await awaiting()).toEqual([]);
    expect((await db().ledgerAccount.findFirstOrThrow({ where: { kind: "payouts" } })).balance - payoutsBefore).toBe(2000n);
    expect(await db().payoutLeg.findFirstOrThrow({ where: { withdrawalId: a.id } })).toMatchObject({
      status: "completed",
      providerReference: "transfer:VENMO-4471",
      completedById: admin.id,
    });
    // Recorded once: a second record is refused and moves nothing.
    expect((await post(`/api/admin/payouts/${a.id}/transfer`, admin.cookie, { reference: "VENMO-4472" })).status).toBe(409);
  });

  it("answers the back office's forms with a redirect and a toast, and the API with JSON whatever is asked (ADR 040)", async () => {
    const admin = await gatedAdmin();
    const a = await pendingPayout("20");
    const form = { method: "POST", cookie: admin.cookie, headers: { Accept: "application/json", Referer: "http://localhost/admin/payouts" } };
    const approved = await call(`/admin/payouts/${a.id}/approve`, { ...form, form: {} });
    expect(approved.headers.get("Location")).toBe("/admin/payouts");
    expect(await pageText(await call("/admin/payouts", { cookie: `${admin.cookie}; ${cookiesFrom(approved)}` }))).toContain("Payout updated successfully");
    const again = await call(`/admin/payouts/${a.id}/approve`, { ...form, form: {} });
    expect(await pageText(await call("/admin/payouts", { cookie: `${admin.cookie}; ${cookiesFrom(again)}` }))).toContain("This payout is already");
    // The API: a form that asks for HTML still gets JSON and the status.
    const refused = await call(`/api/admin/payouts/${a.id}/approve`, { method: "POST", cookie: admin.cookie, form: {}, headers: { Accept: "text/html" } });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: expect.stringMatching(/\w/) });
  });

  it("reads the back office's forms with conform and the API's JSON with the same schemas: bad input is refused, with an error toast or a 400, and changes nothing", async () => {
    const admin = await gatedAdmin();
    const { player, id } = await pendingPayout("20");
    const form = (path: string, fields: Record<string, string>) =>
      call(path, { method: "POST", cookie: admin.cookie, form: fields, headers: { Referer: "http://localhost/admin" } });
    const toastOf = async (response: Response) => {
      expect(response.headers.get("Location")).toBe("/admin");
      return (await readToast(new Request("http://localhost/", { headers: { Cookie: cookiesFrom(response) } }))).toast;
    };

    expect(await toastOf(await form("/admin/payouts/bulk-approve", { maxAmount: "75" }))).toMatchObject({
      type: "error",
      description: "maxAmount: maxAmount must be 50 or 100",
    });
    expect(await toastOf(await form(`/admin/users/${player.id}/suspend`, { suspended: "maybe" }))).toMatchObject({ type: "error" });
    expect(await toastOf(await form(`/admin/users/${player.id}/exclusion`, { choice: "" }))).toMatchObject({
      type: "error",
      description: "choice: Choose a period: 24h, 7d, 30d, 6m, 1y or 5y",
    });
    const api = await post("/api/admin/payouts/bulk-approve", admin.cookie, { maxAmount: 75 });
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({ message: "maxAmount: maxAmount must be 50 or 100" });
    // Half of a surrogate pair, which JSON can spell and PostgreSQL's jsonb (the audit log) cannot hold.
    const unpaired = await post(`/api/admin/payouts/${id}/reject`, admin.cookie, { reason: "Closed \ud800" });
    expect(unpaired.status).toBe(400);
    expect(await unpaired.json()).toEqual({ message: "Text must be valid Unicode: half of a surrogate pair is not" });
    expect(await db().withdrawal.findUniqueOrThrow({ where: { id }, select: { status: true } })).toEqual({ status: "pending" });
    expect(await db().user.findUniqueOrThrow({ where: { id: player.id }, select: { suspendedAt: true, excludedUntil: true } })).toEqual({
      suspendedAt: null,
      excludedUntil: null,
    });
    expect(await db().auditEvent.count({ where: { actor: admin.id } })).toBe(0);

    // A form's blank field reads as not given: a rejection without the reason the player reads is refused.
    expect(await toastOf(await form(`/admin/payouts/${id}/reject`, { reason: "" }))).toMatchObject({ type: "error" });
    expect(await toastOf(await form(`/admin/payouts/${id}/reject`, { choice: "The request breaks the Terms" }))).toMatchObject({
      type: "success",
      title: "Payout updated successfully",
    });
    const mine = (await (await call("/api/withdrawals", { cookie: await sessionCookie(player.id) })).json()) as { status: string; reason: string }[];
    expect(mine[0]).toMatchObject({ status: "failed", reason: "The request breaks the Terms" });
    expect(await userBalance(player.id)).toBe(100_000n);
  });

  it("ends approve racing reject, and a double approve, in one outcome with a balanced ledger", async () => {
    const admin = await gatedAdmin();
    for (let i = 0; i < 5; i++) {
      const { player, id } = await pendingPayout("10", 1000n);
      const results = await Promise.allSettled([approvePayout(admin.id, id), rejectPayout(admin.id, id, "Admin review"), approvePayout(admin.id, id)]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      for (const r of results) if (r.status === "rejected") expect((r.reason as DomainError).code).toBe("withdrawal_decided");
      const status = (await db().withdrawal.findUniqueOrThrow({ where: { id } })).status;
      expect(["rejected", "processing"]).toContain(status);
      expect(await userBalance(player.id)).toBe(status === "rejected" ? 1000n : 0n);
      expect(await db().ledgerTransaction.count({ where: { reference: `withdrawal-release:${id}` } })).toBe(status === "rejected" ? 1 : 0);
    }
  });

  it("refunds a rejected payout once", async () => {
    const admin = await gatedAdmin();
    const { player, id } = await pendingPayout("10", 1000n);
    await rejectPayout(admin.id, id, "Admin review");
    await expect(rejectPayout(admin.id, id, "Admin review")).rejects.toMatchObject({ code: "withdrawal_decided" });
    expect(await userBalance(player.id)).toBe(1000n);
  });

  it("needs the identity verified above $100, and two different admins above $500", async () => {
    const first = await gatedAdmin();
    const second = await gatedAdmin();
    const big = await pendingPayout("600");
    const refused = await post(`/api/admin/payouts/${big.id}/approve`, first.cookie);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: "Verify the player's identity before approving this payout" });
    expect((await post(`/api/admin/users/${big.player.id}/verify`, first.cookie)).status).toBe(200);
    expect(await (await post(`/api/admin/payouts/${big.id}/approve`, first.cookie)).json()).toEqual({ status: "awaiting_second_approval" });
    const again = await post(`/api/admin/payouts/${big.id}/approve`, first.cookie);
    expect(await again.json()).toEqual({ message: "A second, different admin must approve this payout" });
    expect(await (await post(`/api/admin/payouts/${big.id}/approve`, second.cookie)).json()).toEqual({ status: "processing" });
  });

  it("bulk-approves up to $50, skipping larger ones and those needing verification", async () => {
    const admin = await gatedAdmin();
    const small = await pendingPayout("40");
    const over = await pendingPayout("60");
    const response = await post("/api/admin/payouts/bulk-approve", admin.cookie, { maxAmount: 50 });
    const body = (await response.json()) as { approved: number };
    expect(body.approved).toBeGreaterThanOrEqual(1);
    expect((await db().withdrawal.findUniqueOrThrow({ where: { id: small.id } })).status).toBe("processing");
    expect((await db().withdrawal.findUniqueOrThrow({ where: { id: over.id } })).status).toBe("pending");
  });

  it("pays nothing to a suspended or flagged account: approval and bulk approval refuse it with the reason, the queue shows it", async () => {
    const admin = await gatedAdmin();
    const flagged = await pendingPayout("20");
    const suspended = await pendingPayout("21");
    await db().user.update({ where: { id: flagged.player.id }, data: { flaggedAt: new Date(), flagReason: "dispute of pi_123: 60 coins already spent" } });
    await db().user.update({ where: { id: suspended.player.id }, data: { suspendedAt: new Date() } });

    const refused = await post(`/api/admin/payouts/${flagged.id}/approve`, admin.cookie);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: "The account is flagged for review: dispute of pi_123: 60 coins already spent: nothing is paid to it" });
    const alsoRefused = await post(`/api/admin/payouts/${suspended.id}/approve`, admin.cookie);
    expect(alsoRefused.status).toBe(409);
    expect(await alsoRefused.json()).toEqual({ message: "The account is suspended: nothing is paid to it" });

    await post("/api/admin/payouts/bulk-approve", admin.cookie, { maxAmount: 50 });
    for (const { id } of [flagged, suspended]) expect((await db().withdrawal.findUniqueOrThrow({ where: { id } })).status).toBe("pending");
    expect(await userBalances(flagged.player.id)).toEqual({ cash: 98_000n, bonus: 0n });

    const queue = (await (await call("/api/admin/payouts", { cookie: admin.cookie })).json()) as { id: string; blocked: string | null }[];
    expect(queue.find((p) => p.id === flagged.id)?.blocked).toBe("The account is flagged for review: dispute of pi_123: 60 coins already spent");
    expect(queue.find((p) => p.id === suspended.id)?.blocked).toBe("The account is suspended");
    const page = await pageText(await call("/admin/payouts", { cookie: admin.cookie }));
    expect(page).toContain("The account is suspended: not payable.");
  });

  it("lets no admin approve, verify or be a second approver for their own payout", async () => {
    const [first, second] = [await gatedAdmin(), await gatedAdmin()];
    await grantCoins(first.id, 100_000n, "cash");
    const own = await requestWithdrawal(first.id, { amount: "600", method: "venmo", fields: { username: "me-the-admin" } });
    for (const [path, status] of [
      [`/api/admin/users/${first.id}/verify`, 403],
      [`/api/admin/payouts/${own.id}/approve`, 403],
    ] as const) {
      const response = await post(path, first.cookie);
      expect(response.status, path).toBe(status);
      expect(await response.json()).toEqual({ message: "Another admin must decide this: it concerns your own account" });
    }
    expect((await db().user.findUniqueOrThrow({ where: { id: first.id } })).identityVerifiedAt).toBeNull();
    // Another admin verifies and approves first; the requester cannot be the second approver.
    expect((await post(`/api/admin/users/${first.id}/verify`, second.cookie)).status).toBe(200);
    expect(await (await post(`/api/admin/payouts/${own.id}/approve`, second.cookie)).json()).toEqual({ status: "awaiting_second_approval" });
    expect((await post(`/api/admin/payouts/${own.id}/approve`, first.cookie)).status).toBe(403);
    expect((await db().withdrawal.findUniqueOrThrow({ where: { id: own.id } })).status).toBe("pending");
    // A small one of their own is left out of their bulk approval too.
    const small = await requestWithdrawal(first.id, { amount: "12", method: "venmo", fields: { username: "me-the-admin" } });
    await post("/api/admin/payouts/bulk-approve", first.cookie, { maxAmount: 50 });
    expect((await db().withdrawal.findUniqueOrThrow({ where: { id: small.id } })).status).toBe("pending");
  });

  it("completes a raffle early, suspends and reinstates a player, and audits each with before and after", async () => {
    const admin = await gatedAdmin();
    const [a, b] = [await createTestUser({ coins: 100n }), await createTestUser({ coins: 100n })];
    const raffle = await createTestRaffle();
    await enterRaffle({ userId: a.id, raffleId: raffle.id });
    await enterRaffle({ userId: b.id, raffleId: raffle.id });
    expect(await (await post(`/api/admin/raffles/${raffle.id}/complete`, admin.cookie)).json()).toMatchObject({ outcome: "completed" });
    expect((await post(`/api/admin/raffles/${raffle.id}/complete`, admin.cookie)).status).toBe(409);

    const cookie = await sessionCookie(a.id);
    await post(`/api/admin/users/${a.id}/suspend`, admin.cookie, { suspended: true });
    expect((await call("/api/auth/user", { cookie })).status).toBe(401);
    await post(`/api/admin/users/${a.id}/suspend`, admin.cookie, { suspended: false });

    type Row = { actorId: string; action: string; details: { before?: unknown; after?: unknown } };
    const audit = ((await (await call("/api/admin/audit", { cookie: admin.cookie })).json()) as { rows: Row[] }).rows;
    const mine = audit.filter((e) => e.actorId === admin.id).map((e) => e.action);
    expect(mine).toEqual(expect.arrayContaining(["raffle.complete_early", "user.suspend", "user.unsuspend"]));
    expect(audit.find((e) => e.action === "raffle.complete_early")!.details).toMatchObject({ before: { status: "active" }, after: { status: "completed" } });
  });

  it("reports the dashboard and a balanced ledger", async () => {
    const admin = await gatedAdmin();
    const dashboard = (await (await call("/api/admin/dashboard", { cookie: admin.cookie })).json()) as Record<string, Record<string, unknown>>;
    expect(dashboard.overview).toMatchObject({ totalUsers: expect.any(Number), activeRaffles: expect.any(Number) });
    expect(dashboard.revenue).toMatchObject({ daily: expect.any(String), weekly: expect.any(String), monthly: expect.any(String) });
    expect(dashboard.payouts).toHaveProperty("pendingAmount");
    expect(await (await call("/api/admin/ledger", { cookie: admin.cookie })).json()).toMatchObject({ sum: "0.00", balanced: true });
    const page = await (await call("/admin/ledger", { cookie: admin.cookie })).text();
    expect(page).toContain("(balanced)");
  });
});

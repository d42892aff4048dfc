import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { approvePayout } from "~/services/back-office/admin.server";
import { bulkApprove } from "~/services/money/bulk-approval.server";
import { requestWithdrawal } from "~/services/money/withdrawals.server";
import { call, cookiesFrom, gatedAdmin, pageText, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";

/**
 * Controls that hold (issue 31; PRODUCT.md "Thresholds count the player" and "A transfer
 * paid by hand shows the admin where to send it"): the identity check and the second
 * approver count the player's withdrawals, not the request, even when requests race; the
 * transfer step shows the full destination to the admin who records it, audited.
 */
const ask = (userId: string, amount: string, username = "lucky-lou") => requestWithdrawal(userId, { amount, method: "venmo", fields: { username } });
const statusOf = async (id: string) => (await db().withdrawal.findUniqueOrThrow({ where: { id }, select: { status: true } })).status;
const post = (path: string, cookie: string, json: unknown = {}) => call(path, { method: "POST", cookie, json });

describe("thresholds that count the player", () => {
  it("ten parallel $100 requests: at most the first passes without verification, and bulk approval pays none past the second-approver rule", async () => {
    const admin = await gatedAdmin();
    const p = await createTestUser({ cash: 200_000n, identityVerified: false });
    const results = await Promise.all(Array.from({ length: 10 }, () => ask(p.id, "100")));
    expect(results.filter((r) => !r.requiresVerification).length).toBeLessThanOrEqual(1);
    // Under the lock each request counts the ones before it: only the first to take it is at
    // $100. createdAt is its transaction's start, not its turn at the lock, so count, not order.
    const rows = await db().withdrawal.findMany({ where: { userId: p.id }, select: { requiresVerification: true } });
    expect(rows.map((r) => r.requiresVerification).sort()).toEqual([false, ...Array(9).fill(true)]);

    const bulk = await post("/api/admin/payouts/bulk-approve", admin.cookie, { maxAmount: 100 });
    expect(bulk.status).toBe(200);
    const mine = await db().withdrawal.findMany({ where: { userId: p.id }, select: { status: true } });
    expect(mine.every((w) => w.status === "pending")).toBe(true);
    // Verified, the player's $1,000 waiting still needs two admins: bulk approval leaves it all.
    await db().user.update({ where: { id: p.id }, data: { identityVerifiedAt: new Date() } });
    await bulkApprove(admin.id, 10_000);
    expect((await db().withdrawal.findMany({ where: { userId: p.id }, select: { status: true } })).every((w) => w.status === "pending")).toBe(true);
    // One by one, the first admin's approval is only the first of two.
    expect(await approvePayout(admin.id, results[0]!.id)).toEqual({ status: "awaiting_second_approval" });
    expect(await db().auditEvent.count({ where: { actor: admin.id, action: "payout.approve" } })).toBe(0);
  });

  it("$124.95 as $62.48 + $62.47 needs the identity check", async () => {
    const p = await createTestUser({ cash: 20_000n, identityVerified: false });
    expect((await ask(p.id, "62.48")).requiresVerification).toBe(false);
    expect((await ask(p.id, "62.47")).requiresVerification).toBe(true);
  });

  it("$524.79 as two halves needs a second approver for the second, approved after the first or waiting with it", async () => {
    const [admin, other] = [await gatedAdmin(), await gatedAdmin()];
    const p = await createTestUser({ cash: 100_000n, identityVerified: false });
    await db().user.update({ where: { id: p.id }, data: { identityVerifiedAt: new Date() } });
    const first = await ask(p.id, "262.40");
    expect(await approvePayout(admin.id, first.id)).toEqual({ status: "processing" });
    const second = await ask(p.id, "262.39");
    expect(await approvePayout(admin.id, second.id)).toEqual({ status: "awaiting_second_approval" });
    expect(await approvePayout(other.id, second.id)).toEqual({ status: "processing" });

    // Both waiting, approved at once by two admins: neither goes through on one approval.
    const q = await createTestUser({ cash: 100_000n, identityVerified: false });
    await db().user.update({ where: { id: q.id }, data: { identityVerifiedAt: new Date() } });
    const halves = [await ask(q.id, "262.40"), await ask(q.id, "262.39")];
    const decisions = await Promise.all([approvePayout(admin.id, halves[0]!.id), approvePayout(other.id, halves[1]!.id)]);
    expect(decisions).toEqual([{ status: "awaiting_second_approval" }, { status: "awaiting_second_approval" }]);
    expect(await Promise.all(halves.map((h) => statusOf(h.id)))).toEqual(["pending", "pending"]);
  });

  it("bulk approval shows its count and total before it runs, and approves what one approval settles", async () => {
    const admin = await gatedAdmin();
    const p = await createTestUser({ cash: 10_000n, identityVerified: false });
    const { id } = await ask(p.id, "12.34");
    const confirm = await call("/admin/payouts/bulk-approve?maxAmount=50", { cookie: admin.cookie });
    expect(confirm.status).toBe(200);
    const text = await pageText(confirm);
    expect(text).toMatch(/This approves <strong>\d+<\/strong> payouts?, <strong>\$[\d,.]+<\/strong> in all/);
    expect(await statusOf(id)).toBe("pending");
    expect((await call("/admin/payouts/bulk-approve?maxAmount=75", { cookie: admin.cookie })).status).toBe(400);
    const done = await call("/admin/payouts/bulk-approve", {
      method: "POST",
      cookie: admin.cookie,
      form: { maxAmount: "50" },
      headers: { Referer: "http://localhost/admin/payouts/bulk-approve?maxAmount=50" },
    });
    expect(done.headers.get("Location")).toBe("/admin/payouts");
    expect(await statusOf(id)).not.toBe("pending");
    const audit = await db().auditEvent.findFirstOrThrow({ where: { actor: admin.id, action: "payout.bulk_approve" } });
    expect(audit.details).toMatchObject({ maxCents: 5000 });
  });
});

describe("deliberate decisions", () => {
  it("a rejection asks for the reason the player reads, and the player reads it", async () => {
    const admin = await gatedAdmin();
    const p = await createTestUser({ cash: 10_000n, identityVerified: false });
    const { id } = await ask(p.id, "20");
    const form = (fields: Record<string, string>) =>
      call(`/admin/payouts/${id}/reject`, { method: "POST", cookie: admin.cookie, form: fields, headers: { Referer: "http://localhost/admin/payouts" } });
    const blank = await form({ choice: "", reason: "" });
    expect(await pageText(await call("/admin/payouts", { cookie: `${admin.cookie}; ${cookiesFrom(blank)}` }))).toContain(
      "Choose or write the reason the player will read",
    );
    expect(await statusOf(id)).toBe("pending");
    await form({ choice: "We could not verify your identity", reason: "Send a clearer photo of your ID" });
    const mine = (await (await call("/api/withdrawals", { cookie: await sessionCookie(p.id) })).json()) as { status: string; reason: string }[];
    expect(mine[0]).toMatchObject({ status: "failed", reason: "We could not verify your identity. Send a clearer photo of your ID" });
  });

  it("offers no Approve button on the admin's own payout, and says so when a table is empty", async () => {
    const admin = await gatedAdmin();
    expect(await pageText(await call("/admin/payouts", { cookie: admin.cookie }))).toContain("No refunds are held for review.");
    const own = await createTestUser({ cash: 10_000n, identityVerified: false });
    const { id } = await ask(own.id, "15");
    const mine = await pageText(await call("/admin/payouts", { cookie: await adminCookieFor(own.id) }));
    expect(mine).toContain("Your own payout: another admin decides it.");
    expect(mine).not.toContain(`/admin/payouts/${id}/approve`);
    expect(await pageText(await call("/admin/payouts", { cookie: admin.cookie }))).toContain(`/admin/payouts/${id}/approve`);
  });
});

/** A cookie for `userId` made an admin past the gate. */
async function adminCookieFor(userId: string) {
  await db().user.update({ where: { id: userId }, data: { isAdmin: true } });
  const cookie = await sessionCookie(userId);
  await db().session.updateMany({ where: { userId }, data: { adminGatePassedAt: new Date() } });
  return cookie;
}

describe("the transfer step", () => {
  async function approvedTransfer(method: "paypal" | "bank", fields: Record<string, string>) {
    const admin = await gatedAdmin();
    const p = await createTestUser({ cash: 10_000n, identityVerified: false });
    const { id } = await requestWithdrawal(p.id, { amount: "14.70", method, fields });
    await approvePayout(admin.id, id);
    return { admin, p, id };
  }

  it("shows the full destination to the admin who records the transfer, each view audited; masked everywhere else", async () => {
    const { admin, id } = await approvedTransfer("paypal", { username: "alice.payee@example.com" });
    const api = await call(`/api/admin/payouts/${id}/transfer`, { cookie: admin.cookie });
    expect(api.status).toBe(200);
    expect(await api.json()).toMatchObject({
      withdrawalId: id,
      amount: "14.70",
      method: "PayPal",
      destination: [{ label: "PayPal email", value: "alice.payee@example.com" }],
    });
    const page = await call(`/admin/payouts/${id}/transfer`, { cookie: admin.cookie });
    expect(page.status).toBe(200);
    expect(await pageText(page)).toContain("alice.payee@example.com");
    const views = await db().auditEvent.findMany({ where: { actor: admin.id, action: "payout.destination_view", target: `withdrawal:${id}` } });
    expect(views).toHaveLength(2);
    expect(JSON.stringify(views.map((v) => v.details))).not.toContain("alice.payee");
    // Masked in the list, the queue and the tab.
    const listed = await (await call("/api/admin/transfers", { cookie: admin.cookie })).text();
    expect(listed).toContain("PayPal ••••om");
    expect(listed).not.toContain("alice.payee");
    expect(await pageText(await call("/admin/payouts", { cookie: admin.cookie }))).not.toContain("alice.payee");

    // Recorded from the step: back to the tab; the step has nothing more to show.
    const sent = await call(`/admin/payouts/${id}/transfer`, {
      method: "POST",
      cookie: admin.cookie,
      form: { reference: "PP-REF-123456" },
      headers: { Referer: `http://localhost/admin/payouts/${id}/transfer` },
    });
    expect(sent.headers.get("Location")).toBe("/admin/payouts");
    expect(await statusOf(id)).toBe("completed");
    expect((await call(`/api/admin/payouts/${id}/transfer`, { cookie: admin.cookie })).status).toBe(409);
    expect((await call(`/admin/payouts/${id}/transfer`, { cookie: admin.cookie })).headers.get("Location")).toBe("/admin/payouts");
  });

  it("shows a bank's routing and account numbers; not to the payee, not for a flagged account, not to a player", async () => {
    const { admin, p, id } = await approvedTransfer("bank", { routingNumber: "011000015", accountNumber: "000123456789" });
    expect(await (await call(`/api/admin/payouts/${id}/transfer`, { cookie: admin.cookie })).json()).toMatchObject({
      destination: [
        { label: "Routing number", value: "011000015" },
        { label: "Account number", value: "000123456789" },
      ],
    });
    expect((await call(`/api/admin/payouts/${id}/transfer`, { cookie: await sessionCookie(p.id) })).status).toBeGreaterThanOrEqual(401);
    const own = await call(`/api/admin/payouts/${id}/transfer`, { cookie: await adminCookieFor(p.id) });
    expect(own.status).toBe(403);
    await db().user.update({ where: { id: p.id }, data: { flaggedAt: new Date(), flagReason: "dispute of a payment" } });
    const flagged = await call(`/api/admin/payouts/${id}/transfer`, { cookie: admin.cookie });
    expect(flagged.status).toBe(409);
    expect(await flagged.text()).not.toContain("000123456789");
    expect(await db().auditEvent.count({ where: { action: "payout.destination_view", target: `withdrawal:${id}` } })).toBe(1);
  });
});

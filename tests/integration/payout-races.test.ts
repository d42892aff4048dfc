import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { ledgerInvariants, userBalances } from "~/models/money/ledger.server";
import { enterRaffle } from "~/services/raffles/raffles.server";
import { requestWithdrawal } from "~/services/money/withdrawals.server";
import { call, gatedAdmin, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";
import { setUpStripeMode } from "../support/stripe-mode";

/**
 * Approvals racing the player's spending (issue 31, item 7): a refund to the card takes
 * back the purchase's bonus, read under a lock now; before, spending between the read and
 * the take answered 500 (InsufficientBalance), and a bulk approval stopped halfway with no
 * audit row.
 */
const mode = setUpStripeMode();

/** A player who bought package_4 ($24.99: 2,499 cash and 2,501 bonus coins) twice, by card. */
async function buyer() {
  const user = await createTestUser();
  const cookie = await sessionCookie(user.id);
  for (let i = 0; i < 2; i++) {
    const response = await call("/api/create-payment-intent", { method: "POST", cookie, json: { packageId: "package_4" } });
    const { paymentIntentId } = (await response.json()) as { paymentIntentId: string };
    mode.stripe.succeed(paymentIntentId);
    expect((await call("/api/confirm-payment", { method: "POST", cookie, json: { paymentIntentId } })).status).toBe(200);
  }
  return { ...user, cookie };
}

/** Four withdrawals of $12.49, each a refund of part of a purchase (with its bonus), waiting. */
async function pendingRefunds(userId: string) {
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) ids.push((await requestWithdrawal(userId, { amount: "12.49", method: "venmo", fields: { username: "lucky-lou" } })).id);
  return ids;
}

/** Spends the player's bonus: entries bought with bonus first, each in a raffle of its own. */
async function spending(userId: string, times: number) {
  const raffles = await Promise.all(Array.from({ length: times }, () => createTestRaffle({ entryPrice: 600n })));
  return raffles.map((r) => enterRaffle({ userId, raffleId: r.id }).catch((error: unknown) => error));
}

describe("approvals racing the player's spending", () => {
  it("answers every approval with its outcome, never a 500, while the player spends the bonus the refunds take back", async () => {
    const admin = await gatedAdmin();
    for (let round = 0; round < 4; round++) {
      const p = await buyer();
      const ids = await pendingRefunds(p.id);
      const approvals = ids.map((id) => call(`/api/admin/payouts/${id}/approve`, { method: "POST", cookie: admin.cookie, json: {} }));
      const [answers] = await Promise.all([Promise.all(approvals), Promise.all(await spending(p.id, 8))]);
      // Approved, or refused because a refund found the purchase's bonus played and flagged the account (ADR 051).
      for (const answer of answers) {
        expect(answer.status).toBeLessThan(500);
        if (answer.status !== 200) expect([answer.status, await answer.json()]).toEqual([409, { message: expect.stringMatching(/flagged for review/) }]);
      }
      expect((await userBalances(p.id)).bonus).toBeGreaterThanOrEqual(0n);
    }
    expect(await ledgerInvariants()).toMatchObject({ mismatched: 0, negative: 0, unbalanced: 0 });
  });

  it("finishes a bulk approval racing the spending, and audits it", async () => {
    const admin = await gatedAdmin();
    const players = await Promise.all([buyer(), buyer()]);
    const ids = (await Promise.all(players.map((p) => pendingRefunds(p.id)))).flat();
    const bulk = call("/api/admin/payouts/bulk-approve", { method: "POST", cookie: admin.cookie, json: { maxAmount: 50 } });
    const [answer] = await Promise.all([bulk, ...players.flatMap(async (p) => Promise.all(await spending(p.id, 8)))]);
    expect(answer.status).toBe(200);
    // Every one decided, except those of an account a refund flagged meanwhile (its bonus played; ADR 051).
    const left = await db().withdrawal.findMany({ where: { id: { in: ids }, status: "pending" }, select: { user: { select: { flaggedAt: true } } } });
    expect(left.filter((w) => w.user.flaggedAt === null)).toEqual([]);
    expect(await db().auditEvent.count({ where: { actor: admin.id, action: "payout.bulk_approve" } })).toBe(1);
  });
});

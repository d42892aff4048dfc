import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalance } from "~/models/money/ledger.server";
import { enterRaffle } from "~/services/raffles/raffles.server";
import { priceCoins } from "~/services/money/payments/pricing.server";
import { startPayment } from "~/services/money/payments/start.server";
import { demoProvider } from "~/infra/payment-providers/demo-provider.server";
import { LIMITS } from "~/services/system/rate-limit.server";
import { requestWithdrawal } from "~/services/money/withdrawals.server";
import { call, gatedAdmin, sessionCookie, type Call } from "../support/app";
import { createTestRaffle, createTestUser, grantCoins } from "../support/factories";
import { ledgerSnapshot } from "../support/ledger-snapshot";
import { saturate } from "../support/rate-limits";

/**
 * Idempotency-Key on every money-moving POST (docs/decisions/010-idempotency-keys.md):
 * a repeat gets the first response and changes nothing, twenty at once have one effect,
 * the same key with another request is a 422, and players' keys never meet.
 */
const keyed = (key: string, init: Call): Call => ({ method: "POST", ...init, headers: { ...init.headers, "Idempotency-Key": key } });

/** A VIP player whose coins are cash (paid in), so that every money-moving call, withdrawals included, can succeed. */
async function player(cash = 10_000n) {
  const user = await createTestUser({ cash, vipTier: "gold", vipExpiry: new Date(Date.now() + 86_400_000) });
  return { ...user, cookie: await sessionCookie(user.id) };
}

async function pendingPayout(dollars = "20.00") {
  const payee = await createTestUser({ cash: 100_000n });
  return requestWithdrawal(payee.id, { amount: dollars, method: "venmo", fields: { username: "payee" } });
}

/** Each money-moving POST, set up so that its first call succeeds. */
const MONEY_MOVING: Record<string, () => Promise<{ path: string; init: Call }>> = {
  "raffle entry": async () => {
    const [p, raffle] = [await player(), await createTestRaffle()];
    return { path: `/api/raffles/${raffle.id}/enter`, init: { cookie: p.cookie, json: {} } };
  },
  "quick-raffle entry": async () => {
    const [p, raffle] = [await player(), await createTestRaffle({ kind: "quick", tier: "lightning" })];
    return { path: `/api/quick-raffles/${raffle.id}/enter`, init: { cookie: p.cookie, json: {} } };
  },
  "daily spin": async () => ({ path: "/api/daily-spin", init: { cookie: (await player()).cookie, json: {} } }),
  "VIP daily claim": async () => ({ path: "/api/vip/claim-daily-bonus", init: { cookie: (await player()).cookie, json: {} } }),
  "create-payment-intent": async () => ({ path: "/api/create-payment-intent", init: { cookie: (await player()).cookie, json: { packageId: "package_1" } } }),
  "VIP subscribe": async () => ({ path: "/api/vip/subscribe", init: { cookie: (await player()).cookie, json: { tier: "gold" } } }),
  "confirm-payment": async () => {
    const p = await player(0n);
    const { paymentId } = await startPayment(p.id, priceCoins("package_1")!);
    await demoProvider.payWithTestCard(paymentId, "4242 4242 4242 4242");
    return { path: "/api/confirm-payment", init: { cookie: p.cookie, json: { paymentIntentId: paymentId } } };
  },
  withdraw: async () => ({ path: "/api/withdraw", init: { cookie: (await player()).cookie, json: { amount: 10, method: "venmo", accountInfo: "winner" } } }),
  "payout approve": async () => ({ path: `/api/admin/payouts/${(await pendingPayout()).id}/approve`, init: { cookie: (await gatedAdmin()).cookie, json: {} } }),
  "payout reject": async () => ({
    path: `/api/admin/payouts/${(await pendingPayout()).id}/reject`,
    init: { cookie: (await gatedAdmin()).cookie, json: { reason: "Admin review" } },
  }),
  "payout bulk approve": async () => {
    await pendingPayout("30.00");
    return { path: "/api/admin/payouts/bulk-approve", init: { cookie: (await gatedAdmin()).cookie, json: { maxAmount: 50 } } };
  },
  "complete raffle": async () => {
    const raffle = await createTestRaffle();
    for (const p of [await player(), await player()]) await enterRaffle({ userId: p.id, raffleId: raffle.id });
    return { path: `/api/admin/raffles/${raffle.id}/complete`, init: { cookie: (await gatedAdmin()).cookie, json: {} } };
  },
};

/** Everything a money-moving POST can leave behind besides the ledger. */
async function effects() {
  const [ledger, entries, payments, withdrawals, spins, claims, decided, drawn] = await Promise.all([
    ledgerSnapshot(),
    db().entry.count(),
    db().payment.count(),
    db().withdrawal.count(),
    db().dailySpin.count(),
    db().vipDailyClaim.count(),
    db().withdrawal.count({ where: { status: { not: "pending" } } }),
    db().raffle.count({ where: { status: { not: "active" } } }),
  ]);
  return { ledger, entries, payments, withdrawals, spins, claims, decided, drawn };
}

describe("Idempotency-Key", () => {
  for (const [name, setup] of Object.entries(MONEY_MOVING)) {
    it(`${name}: a repeated key returns the first response and changes nothing`, async () => {
      const { path, init } = await setup();
      const key = randomUUID();
      const before = await effects();
      const first = await call(path, keyed(key, init));
      expect(first.status).toBe(200);
      const firstBody = await first.text();
      const after = await effects();
      expect(after).not.toEqual(before);
      for (let i = 0; i < 3; i++) {
        const repeat = await call(path, keyed(key, init));
        expect(repeat.status).toBe(200);
        expect(repeat.headers.get("Idempotent-Replayed")).toBe("true");
        expect(await repeat.text()).toBe(firstBody);
      }
      expect(await effects()).toEqual(after);
    });
  }

  it("runs twenty concurrent requests with one key once; the others wait their turn with a 409 or get the first response", async () => {
    const p = await player();
    const raffle = await createTestRaffle();
    const key = randomUUID();
    const burst = await Promise.all(Array.from({ length: 20 }, () => call(`/api/raffles/${raffle.id}/enter`, keyed(key, { cookie: p.cookie, json: {} }))));
    const statuses = burst.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(statuses).toContain(200);
    for (const r of burst.filter((r) => r.status === 409)) {
      expect(r.headers.get("Retry-After")).toBe("1");
      expect(await r.json()).toEqual({ message: expect.stringContaining("still being processed") });
    }
    expect(await db().entry.count({ where: { raffleId: raffle.id, userId: p.id } })).toBe(1);
    expect(await userBalance(p.id)).toBe(10_000n - 5n);
    // Once it finished, the key answers with the first response.
    const later = await call(`/api/raffles/${raffle.id}/enter`, keyed(key, { cookie: p.cookie, json: {} }));
    expect(later.status).toBe(200);
    expect(later.headers.get("Idempotent-Replayed")).toBe("true");
  });

  it("runs twenty concurrent withdrawals with one key once", async () => {
    const p = await player();
    const key = randomUUID();
    const body = { amount: 10, method: "venmo", accountInfo: "winner" };
    const burst = await Promise.all(Array.from({ length: 20 }, () => call("/api/withdraw", keyed(key, { cookie: p.cookie, json: body }))));
    expect(burst.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(await db().withdrawal.count({ where: { userId: p.id } })).toBe(1);
    expect(await userBalance(p.id)).toBe(10_000n - 1_000n);
  });

  it("refuses the same key with a different body or path (422) and changes nothing", async () => {
    const p = await player();
    const raffle = await createTestRaffle();
    const key = randomUUID();
    expect((await call("/api/withdraw", keyed(key, { cookie: p.cookie, json: { amount: 10, method: "venmo", accountInfo: "winner" } }))).status).toBe(200);
    const before = await effects();
    const otherBody = await call("/api/withdraw", keyed(key, { cookie: p.cookie, json: { amount: 11, method: "venmo", accountInfo: "winner" } }));
    expect(otherBody.status).toBe(422);
    expect(await otherBody.json()).toEqual({ message: expect.stringContaining("already used for a different request") });
    const otherPath = await call(`/api/raffles/${raffle.id}/enter`, keyed(key, { cookie: p.cookie, json: {} }));
    expect(otherPath.status).toBe(422);
    expect(await effects()).toEqual(before);
  });

  it("keeps players' keys apart", async () => {
    const [a, b] = [await player(), await player()];
    const raffle = await createTestRaffle();
    const key = "shared-key-1";
    for (const p of [a, b]) {
      const response = await call(`/api/raffles/${raffle.id}/enter`, keyed(key, { cookie: p.cookie, json: {} }));
      expect(response.status).toBe(200);
      expect(response.headers.get("Idempotent-Replayed")).toBeNull();
    }
    expect(await db().entry.count({ where: { raffleId: raffle.id } })).toBe(2);
  });

  it("without the header behaves as before: each request acts", async () => {
    const p = await player();
    const raffle = await createTestRaffle();
    for (let i = 0; i < 2; i++) expect((await call(`/api/raffles/${raffle.id}/enter`, { method: "POST", cookie: p.cookie, json: {} })).status).toBe(200);
    expect(await db().entry.count({ where: { raffleId: raffle.id, userId: p.id } })).toBe(2);
  });

  it("refuses a malformed key with a 400", async () => {
    const p = await player();
    const raffle = await createTestRaffle();
    for (const key of ["x".repeat(256), "has space", "ünï"]) {
      const response = await call(`/api/raffles/${raffle.id}/enter`, keyed(key, { cookie: p.cookie, json: {} }));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ message: "Idempotency-Key must be 1 to 255 visible ASCII characters" });
    }
    expect(await db().entry.count({ where: { raffleId: raffle.id } })).toBe(0);
  });

  it("replays a refusal as well (the first answer stands), but never stores a rate limit", async () => {
    const poor = await player(0n);
    const raffle = await createTestRaffle();
    const key = randomUUID();
    const refused = await call(`/api/raffles/${raffle.id}/enter`, keyed(key, { cookie: poor.cookie, json: {} }));
    expect(refused.status).toBe(422);
    await grantCoins(poor.id, 100n);
    const again = await call(`/api/raffles/${raffle.id}/enter`, keyed(key, { cookie: poor.cookie, json: {} }));
    expect(again.status).toBe(422);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await db().entry.count({ where: { raffleId: raffle.id } })).toBe(0);

    const busy = await player();
    await saturate(LIMITS.entriesPerPlayer, busy.id);
    const limited = await call(`/api/raffles/${raffle.id}/enter`, keyed("later", { cookie: busy.cookie, json: {} }));
    expect(limited.status).toBe(429);
    expect(await db().idempotencyKey.count({ where: { userId: busy.id } })).toBe(0);
  });

  it("expires keys after 24 hours: the same key then runs again", async () => {
    const p = await player();
    const raffle = await createTestRaffle();
    const request = () => call(`/api/raffles/${raffle.id}/enter`, keyed("daily-key", { cookie: p.cookie, json: {} }));
    expect((await request()).status).toBe(200);
    const row = await db().idempotencyKey.findUniqueOrThrow({ where: { userId_key: { userId: p.id, key: "daily-key" } } });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(24 * 60 * 60 * 1000);
    await db().idempotencyKey.update({ where: { userId_key: { userId: p.id, key: "daily-key" } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const afresh = await request();
    expect(afresh.status).toBe(200);
    expect(afresh.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await db().entry.count({ where: { raffleId: raffle.id, userId: p.id } })).toBe(2);
  });

  it("replays a form post's answer, which is JSON like any other (ADR 040)", async () => {
    const p = await player();
    const raffle = await createTestRaffle();
    const post = () =>
      call(
        `/api/raffles/${raffle.id}/enter`,
        keyed("form-key", { cookie: p.cookie, form: {}, headers: { Referer: "http://localhost/", Accept: "text/html" } }),
      );
    const first = await post();
    expect(first.status).toBe(200);
    const repeat = await post();
    expect(repeat.status).toBe(200);
    expect(repeat.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await repeat.json()).toEqual(await first.json());
    expect(await db().entry.count({ where: { raffleId: raffle.id, userId: p.id } })).toBe(1);
  });

  it("gives the key back when the action fails unexpectedly, so the retry runs once", async () => {
    const p = await player();
    const raffle = await createTestRaffle();
    const request = () => call(`/api/raffles/${raffle.id}/enter`, keyed("retry-key", { cookie: p.cookie, json: {} }));
    await db().$executeRawUnsafe(`CREATE FUNCTION test_injected_fault() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$`);
    await db().$executeRawUnsafe(`CREATE TRIGGER test_injected_fault BEFORE INSERT ON entries FOR EACH ROW EXECUTE FUNCTION test_injected_fault()`);
    try {
      expect((await request()).status).toBe(500);
    } finally {
      await db().$executeRawUnsafe("DROP TRIGGER test_injected_fault ON entries");
      await db().$executeRawUnsafe("DROP FUNCTION test_injected_fault()");
    }
    expect(await userBalance(p.id)).toBe(10_000n);
    const retry = await request();
    expect(retry.status).toBe(200);
    expect((await request()).headers.get("Idempotent-Replayed")).toBe("true");
    expect(await db().entry.count({ where: { raffleId: raffle.id, userId: p.id } })).toBe(1);
  });
});

import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { requestWithdrawal } from "~/services/money/withdrawals.server";
import { enterRaffle } from "~/services/raffles/raffles.server";
import { fileComplaint } from "~/services/back-office/complaints.server";
import { readToast } from "~/web/toast.server";
import { call, routeTable, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";
import {
  FUZZ_RUNS,
  hostileBody,
  hostileFields,
  hostileHeaders,
  hostileParam,
  hostileQuery,
  nastyBodies,
  nastyQueries,
  COMPLAINT_FIELDS,
  COMPLAINT_PLAUSIBLE,
  MONEY,
  type HostileBody,
} from "../support/hostile";
import { ledgerSnapshot } from "../support/ledger-snapshot";
import { scaled } from "../support/timeouts";

// One test is a route's whole batch, each nasty value alone and then FUZZ_RUNS random cases,
// one request after another (a sign-in is a scrypt hash each): its budget grows with the number of cases.
const ROUTE_TIMEOUT = scaled(60_000 + 5_000 * FUZZ_RUNS);

/**
 * Every route, fed generated hostile input through the production build: loaders get
 * hostile path parameters, query strings and headers; actions also get hostile bodies
 * in every encoding. Whatever arrives, the answer is never a 5xx, and a refused request
 * (4xx, or a redirect with an error toast) leaves the ledger exactly as it was.
 * A route without a row here fails the first test: new routes must be fuzzed too.
 * The 10 MB bodies go through a real server: tests/e2e/process/body-limit.spec.ts.
 */
type Role = "anonymous" | "player" | "admin" | "newcomer";
type Fuzz = {
  as: Role;
  /** Body fields the action reads, and values that get past the first checks. */
  fields?: string[];
  plausible?: Record<string, unknown[]>;
  /** Query parameters the loader (or action) reads. */
  query?: string[];
  /** What the route's :id names. */
  id?: "raffle" | "quickRaffle" | "payout" | "user" | "receipt" | "complaint";
  /** Where a layout is fuzzed: its own path may belong to its index route. */
  at?: string;
};

const FUZZ: Record<string, Fuzz> = {
  "routes/$": { as: "player", fields: ["x"] },
  "routes/_index": { as: "player" },
  "routes/theme": { as: "anonymous", fields: ["theme", "redirectTo"], plausible: { theme: ["dark", "light"], redirectTo: ["/", "//evil.example"] } },
  "routes/api.login": {
    as: "anonymous",
    fields: ["intent", "email", "password", "dateOfBirth", "country", "region", "limitDay", "limitWeek", "limitMonth", "acceptTerms", "returnTo"],
    plausible: {
      // Sign-up first: each field's nasty values are sent with the other fields' first values.
      intent: ["signup", "signin"],
      email: ["fuzz@example.com"],
      password: ["correct horse battery staple"],
      dateOfBirth: ["1990-01-01", "2020-01-01"],
      country: ["GB", "US"],
      region: ["US-NJ"],
      limitDay: ["10", "0.5"],
      acceptTerms: ["on"],
    },
    query: ["returnTo"],
  },
  "routes/api.auth.callback": { as: "anonymous", query: ["code", "state", "error"] },
  "routes/api.logout": { as: "player", fields: ["everywhere"], plausible: { everywhere: ["true"] } },
  "routes/onboarding": {
    as: "newcomer",
    fields: ["dateOfBirth", "country", "region", "acceptTerms"],
    plausible: { dateOfBirth: ["1990-01-01", "2020-01-01"], country: ["GB"], acceptTerms: ["on"] },
    query: ["returnTo"],
  },
  "routes/api.auth.user": { as: "player" },
  "routes/api.auth.create-username": { as: "newcomer", fields: ["username"], plausible: { username: ["fuzzer_1", "ab", "admin"] } },
  "routes/admin-access": {
    as: "admin",
    fields: ["intent", "key", "code"],
    plausible: { intent: ["key", "confirm", "code"], key: ["wrong-key-1234"], code: ["123456", "ABCD-EFGH-JKMN-PQRS"] },
  },
  // The back office's layout and tabs (ADR 043). The audit log's filters are read by the same function as /api/admin/audit's, fuzzed there.
  "routes/admin": { as: "admin", query: ["revenue"], at: "/admin/ledger" },
  "routes/admin._index": { as: "admin", query: ["tab", "q", "page", "revenue", "empty", "actor"] },
  "routes/admin.payouts": { as: "admin", query: ["revenue"] },
  "routes/admin.users": { as: "admin", query: ["q", "page", "revenue"] },
  "routes/admin.raffles": { as: "admin", query: ["empty", "revenue"] },
  "routes/admin.audit": { as: "admin", query: ["actor", "before", "revenue"] },
  "routes/admin.ledger": { as: "admin", query: ["revenue"] },
  "routes/admin.complaints": { as: "admin", query: ["revenue"] },
  "routes/api.raffles._index": { as: "player" },
  "routes/api.quick-raffles._index": { as: "player" },
  "routes/api.raffles.$id.enter": { as: "player", id: "raffle", fields: ["quantity", "tickets"] },
  "routes/api.quick-raffles.$id.enter": { as: "player", id: "quickRaffle", fields: ["quantity"] },
  "routes/api.stats": { as: "player" },
  "routes/api.recent-winners": { as: "player" },
  "routes/api.recent-quick-winners": { as: "player" },
  "routes/api.leaderboard": { as: "player", query: ["period"] },
  "routes/api.daily-spin.status": { as: "player" },
  "routes/api.daily-spin._index": { as: "player", fields: ["reward"] },
  "routes/api.vip.claim-daily-bonus": { as: "player", fields: ["amount"] },
  "routes/api.vip.status": { as: "player" },
  "routes/api.vip.benefits": { as: "player" },
  "routes/api.events": { as: "player" },
  "routes/terms": { as: "anonymous" },
  "routes/privacy": { as: "anonymous" },
  "routes/quick": { as: "player" },
  "routes/quick-raffles": { as: "player" },
  "routes/vip._index": { as: "player" },
  "routes/checkout": {
    as: "player",
    fields: ["intent", "cardNumber", "expiry", "cvc"],
    plausible: { intent: ["demo-pay", "hosted"], cardNumber: ["4000 0000 0000 0002"], expiry: ["12/34", "13/99"], cvc: ["123"] },
    query: ["package"],
  },
  "routes/vip-checkout": {
    as: "player",
    fields: ["intent", "cardNumber", "expiry", "cvc"],
    plausible: { intent: ["demo-pay", "hosted"], cardNumber: ["4000 0000 0000 0002"], expiry: ["12/34"], cvc: ["123"] },
    query: ["tier"],
  },
  "routes/checkout-success": { as: "player", query: ["session_id", "payment_intent"] },
  "routes/api.create-payment-intent": { as: "player", fields: ["packageId", "amount", "coins"], plausible: { packageId: ["package_1", "package_9"] } },
  "routes/api.vip.subscribe": { as: "player", fields: ["tier"], plausible: { tier: ["gold", "diamond", "bronze"] } },
  "routes/api.confirm-payment": { as: "player", fields: ["paymentIntentId"], plausible: { paymentIntentId: ["demo_unknown", "pi_123"] } },
  "routes/api.stripe.webhook": { as: "anonymous", fields: ["id", "type", "data"], plausible: { type: ["payment_intent.succeeded"] } },
  "routes/withdraw": {
    as: "player",
    fields: ["amount", "method", "venmo.username", "paypal.username", "bank.routingNumber", "bank.accountNumber", "debit_card.cardNumber", "debit_card.expiry"],
    plausible: {
      amount: MONEY,
      method: ["venmo", "paypal", "bank", "debit_card"],
      "venmo.username": ["fuzzer"],
      "bank.routingNumber": ["021000021"],
      "bank.accountNumber": ["000123456789"],
    },
  },
  "routes/api.withdraw": {
    as: "player",
    fields: ["amount", "method", "accountInfo"],
    plausible: {
      amount: MONEY,
      method: ["venmo", "paypal", "bank", "debit_card"],
      accountInfo: ["fuzzer", "Routing: 021000021 | Account: 000123456789", "Card: 4000056655665556 | Exp: 13/99 | CVV: 123"],
    },
  },
  "routes/api.withdrawals": { as: "player" },
  "routes/api.withdraw-preview": { as: "player", query: ["amount"] },
  "routes/api.admin.dashboard": { as: "admin" },
  "routes/api.admin.users._index": { as: "admin", query: ["q", "page"] },
  "routes/api.admin.raffles._index": { as: "admin", query: ["empty"] },
  "routes/api.admin.payouts._index": { as: "admin", query: ["status"] },
  "routes/api.admin.transfers": { as: "admin" },
  "routes/api.admin.refunds._index": { as: "admin" },
  "routes/api.admin.audit": { as: "admin", query: ["actor", "action", "target", "from", "to", "before", "after"] },
  "routes/api.admin.ledger": { as: "admin" },
  "routes/api.admin.payouts.bulk-approve": { as: "admin", fields: ["maxAmount"], plausible: { maxAmount: [50, 100, "100"] } },
  "routes/api.admin.payouts.$id.approve": { as: "admin", id: "payout" },
  "routes/api.admin.payouts.$id.reject": { as: "admin", id: "payout", fields: ["reason"], plausible: { reason: ["Admin review"] } },
  "routes/api.admin.payouts.$id.transfer": {
    as: "admin",
    id: "payout",
    fields: ["reference", "failure"],
    plausible: { reference: ["BANK-1"], failure: ["Account closed"] },
  },
  "routes/api.admin.refunds.$id.reconcile": {
    as: "admin",
    id: "payout",
    fields: ["reference", "failure"],
    plausible: { reference: ["re_1"], failure: ["Not refunded at the provider"] },
  },
  "routes/api.admin.users.$id.clear-flag": {
    as: "admin",
    id: "user",
    fields: ["flaggedAt", "note"],
    plausible: { flaggedAt: ["2026-11-26T10:00:00.000Z"], note: ["Reconciled"] },
  },
  "routes/api.admin.raffles.$id.complete": { as: "admin", id: "raffle" },
  "routes/api.admin.users.$id.verify": { as: "admin", id: "user", fields: ["reason"], plausible: { reason: ["passport seen by support"] } },
  "routes/api.admin.users.$id.exclusion": { as: "admin", id: "user", fields: ["choice"], plausible: { choice: ["1y", "24h"] } },
  "routes/api.reality-check": { as: "player", fields: ["returnTo"], plausible: { returnTo: ["/", "//evil.example"] } },
  "routes/reality-check": { as: "player", fields: ["returnTo"], plausible: { returnTo: ["/", "//evil.example"] } },
  "routes/raffles.$id.enter": { as: "player", id: "raffle", fields: ["quantity", "tickets"] },
  "routes/quick-raffles.$id.enter": { as: "player", id: "quickRaffle", fields: ["quantity"] },
  "routes/daily-spin": { as: "player", fields: ["reward"] },
  "routes/vip.claim-daily-bonus": { as: "player", fields: ["amount"] },
  "routes/account.username": { as: "newcomer", fields: ["username"], plausible: { username: ["fuzzer_2", "ab", "admin"] } },
  "routes/api.admin.users.$id.suspend": { as: "admin", id: "user", fields: ["suspended"], plausible: { suspended: [true, "true", "false"] } },
  "routes/rules": { as: "anonymous" },
  "routes/history[.]csv": { as: "player", query: ["type", "from", "to"] },
  "routes/responsible-play": {
    as: "player",
    fields: ["intent", "period", "amount", "limitDay", "limitWeek", "limitMonth", "returnTo", "minutes", "choice", "confirm"],
    plausible: {
      intent: ["limit", "limits", "reality", "exclude"],
      period: ["day", "week", "month"],
      amount: MONEY,
      limitDay: MONEY,
      minutes: ["15", "off"],
      choice: ["24h"],
    },
  },
  "routes/history": { as: "player", query: ["type", "from", "to"] },
  "routes/settings": {
    as: "player",
    fields: ["emailNotifications", "soundEffects", "quickRaffleNotifications", "emailEntryReceipts"],
    plausible: { emailNotifications: ["on", "false"], soundEffects: ["on", "true"], quickRaffleNotifications: ["on"], emailEntryReceipts: ["on", "true"] },
  },
  "routes/settings_.two-factor": { as: "player", fields: ["intent", "code"], plausible: { intent: ["begin", "confirm", "disable"], code: ["123456"] } },
  "routes/login.two-factor": { as: "anonymous", fields: ["code"], plausible: { code: ["123456"] } },
  "routes/verify": { as: "player", query: ["session"] },
  "routes/verify_.demo.$id": { as: "player", fields: ["choice"], plausible: { choice: ["verified", "unreadable", "under_18"] } },
  "routes/account.close": { as: "player", fields: ["password", "typed"], plausible: { password: ["not the password"], typed: ["CLOSE"] } },
  "routes/account.export": { as: "player" },
  "routes/account._index": { as: "player" },
  "routes/account.email": {
    as: "player",
    fields: ["intent", "newEmail", "password", "code", "token"],
    plausible: { intent: ["request", "code", "link"], newEmail: ["fuzz-new@example.com"], password: ["not the password"], code: ["123456"] },
    query: ["token"],
  },
  "routes/account.passkeys": {
    as: "player",
    fields: ["intent", "passkeyId"],
    plausible: { intent: ["remove"], passkeyId: ["00000000-0000-4000-8000-000000000000"] },
  },
  "routes/passkeys.register": {
    as: "player",
    fields: ["intent", "challengeId", "name", "response"],
    plausible: { intent: ["options", "register"], challengeId: ["00000000-0000-4000-8000-000000000000"], name: ["Phone"] },
  },
  "routes/passkeys.sign-in": {
    as: "anonymous",
    fields: ["intent", "challengeId", "response", "returnTo"],
    plausible: { intent: ["options", "verify"], challengeId: ["00000000-0000-4000-8000-000000000000"] },
  },
  "routes/api.settings": {
    as: "player",
    fields: ["emailNotifications", "soundEffects", "quickRaffleNotifications", "emailEntryReceipts"],
    plausible: { emailNotifications: ["on", "false"], soundEffects: ["on", "true"], quickRaffleNotifications: ["on"], emailEntryReceipts: ["on", "true"] },
  },
  "routes/admin_.payouts.bulk-approve": { as: "admin", fields: ["maxAmount"], plausible: { maxAmount: [50, 100, "100"] } },
  "routes/admin_.payouts.$id.approve": { as: "admin", id: "payout" },
  "routes/admin_.payouts.$id.reject": { as: "admin", id: "payout", fields: ["reason"], plausible: { reason: ["Admin review"] } },
  "routes/admin_.payouts.$id.transfer": {
    as: "admin",
    id: "payout",
    fields: ["reference", "failure"],
    plausible: { reference: ["BANK-1"], failure: ["Account closed"] },
  },
  "routes/admin_.refunds.$id.reconcile": {
    as: "admin",
    id: "payout",
    fields: ["reference", "failure"],
    plausible: { reference: ["re_1"], failure: ["Not refunded at the provider"] },
  },
  "routes/admin_.users.$id.clear-flag": {
    as: "admin",
    id: "user",
    fields: ["flaggedAt", "note"],
    plausible: { flaggedAt: ["2026-11-26T10:00:00.000Z"], note: ["Reconciled"] },
  },
  "routes/admin_.raffles.$id.complete": { as: "admin", id: "raffle" },
  "routes/admin_.users.$id.verify": { as: "admin", id: "user", fields: ["reason"], plausible: { reason: ["passport seen by support"] } },
  "routes/admin_.users.$id.exclusion": { as: "admin", id: "user", fields: ["choice"], plausible: { choice: ["1y", "24h"] } },
  "routes/admin_.users.$id.suspend": { as: "admin", id: "user", fields: ["suspended"], plausible: { suspended: [true, "true", "false"] } },
  "routes/api.fair.$id": { as: "anonymous", id: "raffle" },
  "routes/fair.$id": { as: "anonymous", id: "raffle" },
  "routes/fair._index": { as: "anonymous", query: ["q", "before"] },
  "routes/fair.draw-verifier[.]mjs": { as: "anonymous" },
  "routes/fair.feed[.]xml": { as: "anonymous", query: ["before"] },
  "routes/receipts.$id": { as: "player", id: "receipt", query: ["format"] },
  "routes/receipts.$id.receipt[.]json": { as: "player", id: "receipt" },
  "routes/forgot-password": { as: "anonymous", fields: ["email"], plausible: { email: ["fuzz@example.com"] } },
  "routes/reset-password.$token": {
    as: "anonymous",
    fields: ["password", "confirm"],
    plausible: { password: ["a new password 1"], confirm: ["a new password 1"] },
  },
  "routes/verify-email": {
    as: "player",
    fields: ["intent", "token", "code"],
    plausible: { intent: ["link", "code", "resend"], code: ["123456"] },
    query: ["token"],
  },
  // Complaints (ADR 081): the form, its API twin, the queue and its actions.
  "routes/complaints._index": { as: "player" },
  "routes/complaints.new": { as: "player", fields: COMPLAINT_FIELDS, plausible: COMPLAINT_PLAUSIBLE, query: ["subject", "reference"] },
  "routes/api.complaints": { as: "player", fields: COMPLAINT_FIELDS, plausible: COMPLAINT_PLAUSIBLE },
  "routes/api.admin.complaints._index": { as: "admin" },
  "routes/api.admin.complaints.$id.answer": { as: "admin", id: "complaint", fields: ["answer"], plausible: { answer: ["We looked into it: all is well."] } },
  "routes/api.admin.complaints.$id.close": { as: "admin", id: "complaint" },
  "routes/admin_.complaints.$id.answer": { as: "admin", id: "complaint", fields: ["answer"], plausible: { answer: ["We looked into it: all is well."] } },
  "routes/admin_.complaints.$id.close": { as: "admin", id: "complaint" },
  "routes/dev.mail._index": { as: "anonymous" },
  "routes/dev.mail.$id": { as: "anonymous" },
};

type World = { cookies: Record<Role, string | undefined>; ids: Record<NonNullable<Fuzz["id"]>, string> };
let shared: Omit<World, "cookies"> & { cookies: Omit<World["cookies"], "player"> };

/** What every route may touch: an admin past the gate, a newcomer, a payout waiting, raffles open. */
beforeAll(async () => {
  const admin = await createTestUser({ isAdmin: true, coins: 1_000n });
  const newcomer = await createTestUser({ username: false });
  const payee = await createTestUser({ cash: 50_000n });
  const payout = await requestWithdrawal(payee.id, { amount: "20.00", method: "venmo", fields: { username: "payee" } });
  const quickRaffle = await createTestRaffle({ kind: "quick", tier: "lightning" });
  const complaint = await fileComplaint(payee.id, { subject: "payout", reference: payout.id, message: "My payout has not arrived yet." });
  const cookies = { anonymous: undefined, admin: await sessionCookie(admin.id), newcomer: await sessionCookie(newcomer.id) };
  await db().session.updateMany({ where: { userId: admin.id }, data: { adminGatePassedAt: new Date() } });
  shared = { cookies, ids: { raffle: "", receipt: "", quickRaffle: quickRaffle.id, payout: payout.id, user: payee.id, complaint: complaint.id } };
});

/** A player and a raffle of the route's own, so that one route's effects (a break, a completed draw) never shape another's. */
async function world(row: Fuzz): Promise<World & { playerId: string }> {
  const player = await createTestUser({ coins: 100_000n, vipTier: "gold", vipExpiry: new Date(Date.now() + 86_400_000) });
  const raffle = await createTestRaffle();
  // A receipt's route gets a ticket of the player's to name (ADR 079).
  if (row.id === "receipt") await enterRaffle({ userId: player.id, raffleId: raffle.id });
  const receipt = row.id === "receipt" ? (await db().entry.findFirstOrThrow({ where: { userId: player.id } })).id : "";
  return {
    playerId: player.id,
    cookies: { ...shared.cookies, player: await sessionCookie(player.id) },
    ids: { ...shared.ids, raffle: raffle.id, receipt },
  };
}

/** The refusal a response carries: a 4xx, or a redirect whose flash toast is an error. */
async function refused(response: Response): Promise<boolean> {
  if (response.status >= 400) return true;
  const toastCookie = response.headers.getSetCookie().find((c) => c.startsWith("__toast="));
  if (!toastCookie) return false;
  const { toast } = await readToast(new Request("http://localhost/", { headers: { Cookie: toastCookie.split(";")[0]! } }));
  return toast?.type === "error";
}

const fuzzedRoutes = routeTable;

describe("hostile input", () => {
  it("has a row for every route", () => {
    expect(Object.keys(FUZZ).sort()).toEqual(fuzzedRoutes.map((r) => r.id).sort());
  });

  for (const route of fuzzedRoutes) {
    const row = FUZZ[route.id];
    if (!row) continue;
    const at = row.at ?? route.path;
    for (const method of [route.loader ? "GET" : undefined, route.action ? "POST" : undefined].filter(Boolean) as string[]) {
      it(`${method} ${at}: never a 5xx, and a refusal changes nothing`, { timeout: ROUTE_TIMEOUT }, async () => {
        const { cookies, ids, playerId } = await world(row);
        const param = hostileParam([row.id ? ids[row.id] : "x"]);
        const body = method === "POST" ? hostileFields(row.fields ?? [], row.plausible).chain(hostileBody) : fc.constant(undefined);
        const known = row.id ? ids[row.id] : "x";
        // Each field (or query parameter) alone with each nasty value, before the random cases.
        const examples: [string, string, Record<string, string>, HostileBody | undefined][] =
          method === "POST"
            ? nastyBodies(row.fields ?? [], row.plausible).map((b) => [known, "", {}, b])
            : nastyQueries(row.query ?? []).map((q) => [known, q, {}, undefined]);
        await fc.assert(
          fc.asyncProperty(param, hostileQuery(row.query ?? []), hostileHeaders, body, async (id, query, headers, payload) => {
            // Rate limits would answer most runs with a 429 before the input is read.
            await db().rateLimitBucket.deleteMany();
            const path = at.replace(":id", id).replace("*", `no/such/${id}`) + query;
            // Signing out ends the session: that route gets a session of its own each time.
            const cookie = route.id === "routes/api.logout" ? await sessionCookie(playerId) : cookies[row.as];
            const before = await ledgerSnapshot();
            const complaintsBefore = await db().complaint.count();
            const response = await call(path, {
              method,
              cookie,
              headers: { ...headers, ...(payload?.contentType ? { "Content-Type": payload.contentType } : {}) },
              body: payload?.body,
            });
            const label = `${method} ${path} ${payload?.label ?? ""} → ${response.status}`;
            expect(response.status, label).toBeLessThan(500);
            if (await refused(response)) {
              expect(await ledgerSnapshot(), label).toEqual(before);
              expect(await db().complaint.count(), label).toBe(complaintsBefore);
            }
            const json = response.headers.get("Content-Type")?.includes("application/json");
            if (response.status >= 400 && json && path.startsWith("/api/") && route.id !== "routes/api.login") {
              // The API says what was wrong.
              expect(((await response.json()) as { message?: unknown }).message, label).toEqual(expect.stringMatching(/\w/));
            } else {
              await response.body?.cancel();
            }
          }),
          // fast-check counts examples within numRuns: every example runs, then FUZZ_RUNS random cases.
          { numRuns: examples.length + FUZZ_RUNS, examples },
        );
      });
    }
  }
});

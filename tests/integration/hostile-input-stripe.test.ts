import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { call, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";
import { FUZZ_RUNS, hostileBody, hostileFields, hostileHeaders, hostileQuery, hostileValue, nastyBodies, nastyQueries, toJson } from "../support/hostile";
import { ledgerSnapshot } from "../support/ledger-snapshot";
import { setUpStripeMode } from "../support/stripe-mode";
import { scaled } from "../support/timeouts";

// One test is a route's whole batch, each nasty value alone and then FUZZ_RUNS random cases,
// one request after another: its budget grows with the number of cases.
const ROUTE_TIMEOUT = scaled(60_000 + 5_000 * FUZZ_RUNS);

/**
 * The payment routes again in Stripe mode, where hostile input reaches the Stripe adapter:
 * never a 5xx, the ledger untouched. Webhooks get hostile events with a valid signature too
 * (as if the signing secret had leaked, or Stripe sent a shape we do not expect).
 */
const mode = setUpStripeMode();
let cookie: string;

beforeAll(async () => {
  const player = await createTestUser({ coins: 1_000n });
  cookie = await sessionCookie(player.id);
});

const ROUTES: { path: string; method: "GET" | "POST"; fields?: string[]; plausible?: Record<string, unknown[]>; query?: string[] }[] = [
  { path: "/checkout", method: "POST", fields: ["intent"], plausible: { intent: ["hosted", "demo-pay"] }, query: ["package"] },
  { path: "/vip/checkout", method: "POST", fields: ["intent"], plausible: { intent: ["hosted"] }, query: ["tier"] },
  { path: "/checkout-success", method: "GET", query: ["session_id", "payment_intent"] },
  { path: "/api/create-payment-intent", method: "POST", fields: ["packageId"], plausible: { packageId: ["package_1"] } },
  { path: "/api/vip/subscribe", method: "POST", fields: ["tier"], plausible: { tier: ["gold"] } },
  { path: "/api/confirm-payment", method: "POST", fields: ["paymentIntentId"], plausible: { paymentIntentId: ["pi_unknown"] } },
];

describe("hostile input in Stripe mode", () => {
  for (const route of ROUTES) {
    it(`${route.method} ${route.path}: never a 5xx, and a refusal changes nothing`, { timeout: ROUTE_TIMEOUT }, async () => {
      const body = route.method === "POST" ? hostileFields(route.fields ?? [], route.plausible).chain(hostileBody) : fc.constant(undefined);
      const examples =
        route.method === "POST"
          ? nastyBodies(route.fields ?? [], route.plausible).map((b) => ["", {}, b] as [string, Record<string, string>, typeof b])
          : nastyQueries(route.query ?? []).map((q) => [q, {}, undefined] as [string, Record<string, string>, undefined]);
      await fc.assert(
        fc.asyncProperty(hostileQuery(route.query ?? []), hostileHeaders, body, async (query, headers, payload) => {
          const before = await ledgerSnapshot();
          const response = await call(route.path + query, {
            method: route.method,
            cookie,
            headers: { ...headers, ...(payload?.contentType ? { "Content-Type": payload.contentType } : {}) },
            body: payload?.body,
          });
          const label = `${route.method} ${route.path}${query} ${payload?.label ?? ""} → ${response.status}`;
          await response.body?.cancel();
          expect(response.status, label).toBeLessThan(500);
          if (response.status >= 400) expect(await ledgerSnapshot(), label).toEqual(before);
        }),
        // fast-check counts examples within numRuns: every example runs, then FUZZ_RUNS random cases.
        { numRuns: examples.length + FUZZ_RUNS, examples },
      );
    });
  }

  it("POST /api/stripe/webhook: signed or not, a hostile event is never a 5xx and moves no coin", async () => {
    const types = [
      "payment_intent.succeeded",
      "payment_intent.payment_failed",
      "checkout.session.completed",
      "charge.refunded",
      "charge.dispute.created",
      "customer.created",
    ];
    const object = fc.dictionary(
      fc.constantFrom("id", "object", "payment_intent", "metadata", "amount", "amount_refunded", "status", "__proto__"),
      hostileValue,
      { maxKeys: 5 },
    );
    const event = fc.record({
      id: hostileValue,
      object: fc.constant("event"),
      type: fc.constantFrom(...types),
      data: fc.oneof(fc.record({ object }), hostileValue),
    });
    await fc.assert(
      fc.asyncProperty(event, fc.boolean(), async (e, signed) => {
        const payload = toJson(e);
        const before = await ledgerSnapshot();
        const response = signed ? await mode.deliver(payload) : await mode.deliver(payload, "t=1,v1=forged");
        const label = `${payload.slice(0, 300)} → ${response.status}`;
        await response.body?.cancel();
        expect(response.status, label).toBeLessThan(500);
        expect(await ledgerSnapshot(), label).toEqual(before);
      }),
      { numRuns: FUZZ_RUNS * 4 },
    );
  });
});

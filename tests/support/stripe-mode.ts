import Stripe from "stripe";
import { afterAll, beforeAll, expect } from "vitest";
import { forgetEnv } from "~/infra/env.server";
import type { Product } from "~/services/money/payments/pricing.server";
import { settlePayment } from "~/services/money/payments/settle.server";
import { startPayment } from "~/services/money/payments/start.server";
import { call, sessionCookie } from "./app";
import { createTestUser } from "./factories";
import { startFakeStripe, type FakeStripe } from "./fake-stripe";

/**
 * Runs a test file in Stripe mode: the real Stripe adapter against the local fake
 * (tests/support/fake-stripe.ts), with webhooks signed by the SDK's own test-header helper.
 */
export const WEBHOOK_SECRET = "whsec_test_secret_for_the_suite";
/** What real mode (Stripe keys) requires, for a test that runs the app that way; no Stripe is called with these. */
export const REAL_MODE_ENV = {
  STRIPE_SECRET_KEY: "sk_test_not_called",
  STRIPE_PUBLISHABLE_KEY: "pk_test_not_called",
  SESSION_SECRET: "s".repeat(40),
  LASTING_SECRET: "l".repeat(40),
  ADMIN_ACCESS_KEY: "an-admin-key-for-tests",
  PAYOUT_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64"),
  ALLOWED_COUNTRIES: "GB",
  SUPPORT_EMAIL: "help@raffle.example",
};

const ENV = {
  ...REAL_MODE_ENV,
  STRIPE_SECRET_KEY: "sk_test_fake",
  STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  // Payments are tested here, not draws: no drand relay is reachable from the tests (the
  // beacon's own tests run a local one, tests/support/local-beacon.ts).
  BEACON_URLS: "off",
};
const signer = new Stripe("sk_test_fake");

export type StripeMode = {
  /** The fake Stripe, set before the file's tests run. */
  stripe: FakeStripe;
  /** A Stripe-Signature header for the payload (our secret and now, unless told otherwise). */
  sign(payload: string, options?: { secret?: string; timestamp?: number }): string;
  /** Delivers a webhook as Stripe would; signed correctly unless a signature is given. */
  deliver(payload: string, signature?: string): Promise<Response>;
};

/** `env`: more settings for the file, e.g. ALLOWED_COUNTRIES, restored after it like the keys. */
export function setUpStripeMode({ env = {} }: { env?: Record<string, string> } = {}): StripeMode {
  const saved: Record<string, string | undefined> = {};
  const mode: StripeMode = {
    stripe: undefined as unknown as FakeStripe,
    sign: (payload, { secret = WEBHOOK_SECRET, timestamp } = {}) => signer.webhooks.generateTestHeaderString({ payload, secret, timestamp }),
    deliver: (payload, signature = mode.sign(payload)) =>
      call("/api/stripe/webhook", { method: "POST", headers: { "Stripe-Signature": signature, "Content-Type": "application/json" }, body: payload }),
  };
  beforeAll(async () => {
    mode.stripe = await startFakeStripe();
    for (const [key, value] of Object.entries({ ...ENV, ...env, STRIPE_API_URL: mode.stripe.url })) {
      saved[key] = process.env[key];
      process.env[key] = value;
    }
    forgetEnv();
  });
  afterAll(async () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    forgetEnv();
    await mode.stripe.close();
  });
  return mode;
}

/** A player (with some coins, or a VIP tier) and their session cookie, to pay with. */
export async function buyer(coins = 0n, vip?: "gold") {
  const user = await createTestUser({ coins, ...(vip ? { vipTier: vip, vipExpiry: new Date(Date.now() + 86_400_000) } : {}) });
  return { ...user, cookie: await sessionCookie(user.id) };
}

/** Starts a card payment through the API, as the checkout page's script does. */
export async function createIntent(cookie: string, packageId = "package_2", extra: Record<string, unknown> = {}) {
  const response = await call("/api/create-payment-intent", { method: "POST", cookie, json: { packageId, ...extra } });
  expect(response.status).toBe(200);
  return (await response.json()) as { clientSecret: string; paymentIntentId: string; coins: number; amount: string };
}

/** A card payment for `product`, charged and settled at `at` (the fake Stripe takes the money): its provider id. */
export async function payThrough(mode: StripeMode, userId: string, product: Product, at = new Date()): Promise<string> {
  const { paymentId } = await startPayment(userId, product, at);
  mode.stripe.succeed(paymentId);
  expect(await settlePayment(paymentId, at)).toMatchObject({ status: "succeeded" });
  return paymentId;
}

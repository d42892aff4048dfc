import Stripe from "stripe";
import { afterAll, beforeAll } from "vitest";
import { call } from "./app";
import { startFakeStripe, type FakeStripe } from "./fake-stripe";

/**
 * Runs a test file in Stripe mode: the real Stripe adapter against the local fake
 * (tests/support/fake-stripe.ts), with webhooks signed by the SDK's own test-header helper.
 */
export const WEBHOOK_SECRET = "whsec_test_secret_for_the_suite";
const ENV = {
  STRIPE_SECRET_KEY: "sk_test_fake",
  STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  SESSION_SECRET: "s".repeat(40),
  ADMIN_ACCESS_KEY: "an-admin-key-for-tests",
  PAYOUT_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64"),
  ALLOWED_COUNTRIES: "GB",
};
const resetEnvCache = () => ((globalThis as { __raffleEnv?: unknown }).__raffleEnv = undefined);
const signer = new Stripe("sk_test_fake");

export type StripeMode = {
  /** The fake Stripe, set before the file's tests run. */
  stripe: FakeStripe;
  /** A Stripe-Signature header for the payload (our secret and now, unless told otherwise). */
  sign(payload: string, options?: { secret?: string; timestamp?: number }): string;
  /** Delivers a webhook as Stripe would; signed correctly unless a signature is given. */
  deliver(payload: string, signature?: string): Promise<Response>;
};

export function setUpStripeMode(): StripeMode {
  const saved: Record<string, string | undefined> = {};
  const mode: StripeMode = {
    stripe: undefined as unknown as FakeStripe,
    sign: (payload, { secret = WEBHOOK_SECRET, timestamp } = {}) => signer.webhooks.generateTestHeaderString({ payload, secret, timestamp }),
    deliver: (payload, signature = mode.sign(payload)) =>
      call("/api/stripe/webhook", { method: "POST", headers: { "Stripe-Signature": signature, "Content-Type": "application/json" }, body: payload }),
  };
  beforeAll(async () => {
    mode.stripe = await startFakeStripe();
    for (const [key, value] of Object.entries({ ...ENV, STRIPE_API_URL: mode.stripe.url })) {
      saved[key] = process.env[key];
      process.env[key] = value;
    }
    resetEnvCache();
  });
  afterAll(async () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    resetEnvCache();
    await mode.stripe.close();
  });
  return mode;
}

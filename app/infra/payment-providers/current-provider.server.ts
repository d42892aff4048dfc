import { getEnv } from "~/infra/env.server";
import { demoProvider } from "./demo-provider.server";
import type { PaymentProvider } from "./provider";
import { stripeProvider } from "./stripe-provider.server";

/**
 * The card processor this process talks to: the demo one in demo mode, Stripe otherwise.
 * Its own module so that paying in (payments.server.ts) and paying out (payouts.server.ts)
 * both reach it without importing each other.
 */
export function paymentProvider(): PaymentProvider {
  return getEnv().demoMode ? demoProvider : stripeProvider;
}

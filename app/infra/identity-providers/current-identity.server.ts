import { getEnv } from "~/infra/env.server";
import { demoIdentity } from "./demo-identity.server";
import type { IdentityProvider } from "./provider";
import { stripeIdentity } from "./stripe-identity.server";

/** The identity provider this process talks to: the demo one in demo mode, Stripe Identity otherwise. */
export function identityProvider(): IdentityProvider {
  return getEnv().demoMode ? demoIdentity : stripeIdentity;
}

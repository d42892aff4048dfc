import Stripe from "stripe";
import { stripeSdk, stripeUnavailable } from "~/infra/payment-providers/stripe-provider.server";
import { IdentityProviderUnavailable, type IdentityProvider, type IdentitySession } from "./provider";

/**
 * Stripe Identity: a VerificationSession of a document with a matching selfie. Stripe keeps
 * the images; we retrieve the verified name and date of birth (`verified_outputs`).
 */
async function reach<T>(call: (api: Stripe) => Promise<T>): Promise<T> {
  try {
    return await call(stripeSdk());
  } catch (error) {
    throw stripeUnavailable(error) ? new IdentityProviderUnavailable(error) : error;
  }
}

const pad = (n: number) => String(n).padStart(2, "0");

function toSession(vs: Stripe.Identity.VerificationSession): IdentitySession {
  const outputs = vs.verified_outputs;
  const dob = outputs?.dob;
  const verified =
    vs.status === "verified" && outputs && dob?.year && dob.month && dob.day
      ? { firstName: outputs.first_name ?? "", lastName: outputs.last_name ?? "", dateOfBirth: `${dob.year}-${pad(dob.month)}-${pad(dob.day)}` }
      : undefined;
  return {
    id: vs.id,
    // Verified without the fields we need is not verified for us: it waits for input.
    status: vs.status === "verified" && !verified ? "requires_input" : vs.status,
    userId: typeof vs.metadata?.userId === "string" ? vs.metadata.userId : null,
    ...(verified ? { verified } : {}),
    ...(vs.last_error?.code ? { error: { code: vs.last_error.code, reason: vs.last_error.reason ?? vs.last_error.code } } : {}),
  };
}

export const stripeIdentity: IdentityProvider = {
  name: "stripe",

  async createSession({ userId, returnUrl, idempotencyKey }) {
    const vs = await reach((api) =>
      api.identity.verificationSessions.create(
        { type: "document", metadata: { userId }, options: { document: { require_matching_selfie: true } }, return_url: returnUrl },
        { idempotencyKey },
      ),
    );
    return { id: vs.id, url: vs.url! };
  },

  async getSession(id) {
    return toSession(await reach((api) => api.identity.verificationSessions.retrieve(id, { expand: ["verified_outputs"] })));
  },
};

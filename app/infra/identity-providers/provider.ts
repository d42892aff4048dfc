/**
 * The one interface every identity provider implements (PRODUCT.md "Know your player"):
 * Stripe Identity today; Onfido, Persona or Veriff must be one new adapter. The provider
 * holds the documents and the selfie; we read back only the result and the verified fields.
 */

/** Fields the provider verified from the document: the name and the date of birth (YYYY-MM-DD). */
export type VerifiedFields = { firstName: string; lastName: string; dateOfBirth: string };

/**
 * A verification session as we read it. `requires_input`: not done, or done and refused
 * (`error` says why); `processing`: the provider is checking; `verified`: the fields are read.
 */
export type IdentitySession = {
  id: string;
  status: "requires_input" | "processing" | "verified" | "canceled";
  /** The player the session was made for (its metadata): a result is only ever applied to them. */
  userId: string | null;
  verified?: VerifiedFields;
  error?: { code: string; reason: string };
};

/**
 * The provider could not be reached, or answered that it cannot serve now. Verification
 * waits: the player gets a 503 with Retry-After, and nothing that needs it is allowed.
 */
export class IdentityProviderUnavailable extends Error {
  name = "IdentityProviderUnavailable";
  constructor(readonly cause: unknown) {
    super("The identity check service is not answering right now. Please try again in a minute.");
  }
}

export interface IdentityProvider {
  readonly name: "stripe" | "demo";
  /** Starts a session for the player; `url` is the provider's page the player is sent to. */
  createSession(input: { userId: string; returnUrl: string; idempotencyKey: string }): Promise<{ id: string; url: string }>;
  /** The session as the provider holds it now (never the event that mentioned it). */
  getSession(id: string): Promise<IdentitySession>;
}

import { localSecret } from "./data-dir.server";
import { getEnv } from "./env.server";

/** The secret that signs cookies: SESSION_SECRET, or in demo mode one kept under DATA_DIR. Rotating it signs everyone out. */
export function sessionSecret(): string {
  return getEnv().SESSION_SECRET ?? localSecret("session-secret");
}

/**
 * The secret of what must outlive a rotation of the session secret (ADR 086): the person keys
 * that kept exclusions and once-only gifts are found by, and the receipts' signing key.
 * LASTING_SECRET (required for real money); a demo without it keys them from the session
 * secret, as every site did before it existed, so an existing one keys them as it did.
 */
export function lastingSecret(): string {
  return getEnv().LASTING_SECRET ?? sessionSecret();
}

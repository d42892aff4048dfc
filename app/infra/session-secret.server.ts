import { localSecret } from "./data-dir.server";
import { getEnv } from "./env.server";

/** The secret that signs cookies: SESSION_SECRET, or in demo mode one kept under DATA_DIR. */
export function sessionSecret(): string {
  return getEnv().SESSION_SECRET ?? localSecret("session-secret");
}

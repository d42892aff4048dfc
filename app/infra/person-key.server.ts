import { createHmac } from "node:crypto";
import { normaliseEmail } from "~/shared/person-email";
import { sessionSecret } from "./session-secret.server";

/**
 * The key a person's controls and once-only gifts are kept under: an HMAC of the
 * normalised email with a key derived from the server secret, so the table names nobody to
 * whoever reads it. The prefix names the kind: "identity:" (name and date of birth, once
 * identity is verified) is the next.
 */
export function personEmailKey(email: string): string {
  const key = createHmac("sha256", sessionSecret()).update("person-key:v1").digest();
  return `email:${createHmac("sha256", key).update(normaliseEmail(email)).digest("hex")}`;
}

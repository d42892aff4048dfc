import { createHmac } from "node:crypto";
import { normaliseEmail } from "~/shared/person-email";
import { lastingSecret } from "./session-secret.server";

/** The HMAC key of every person key, derived from the lasting secret. */
const personKeyRoot = () => createHmac("sha256", lastingSecret()).update("person-key:v1").digest();

/**
 * The key a person's controls and once-only gifts are kept under: an HMAC of the normalised
 * email with a key derived from the lasting secret (never rotated: ADR 086), so the table
 * names nobody to whoever reads it. The prefix names the kind: "identity:" (name and date of
 * birth, once identity is verified) is the next.
 */
export function personEmailKey(email: string): string {
  return `email:${createHmac("sha256", personKeyRoot()).update(normaliseEmail(email)).digest("hex")}`;
}

/**
 * The person key of a verified name and date of birth (YYYY-MM-DD): the same HMAC, over the
 * names folded to letters only (accents, case and spacing fold away) and the date.
 */
export function personIdentityKey(firstName: string, lastName: string, dateOfBirth: string): string {
  const fold = (name: string) =>
    name
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .replace(/[^\p{L}]/gu, "");
  return `identity:${createHmac("sha256", personKeyRoot())
    .update(`${fold(firstName)}|${fold(lastName)}|${dateOfBirth}`)
    .digest("hex")}`;
}

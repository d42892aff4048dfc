import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { localSecret } from "./data-dir.server";
import { getEnv } from "./env.server";

/**
 * AES-256-GCM for secrets at rest: payout details, and (under a key of their own) TOTP
 * secrets. The key comes from PAYOUT_ENCRYPTION_KEY, or in demo mode from a key generated
 * under DATA_DIR. Stored form: v1.<iv>.<tag>.<data>.
 */
function masterKey(): Buffer {
  const configured = getEnv().PAYOUT_ENCRYPTION_KEY;
  if (configured) return Buffer.from(configured, "base64");
  return Buffer.from(localSecret("payout-encryption-key"), "base64url").subarray(0, 32);
}

/** What a sealed value is for: payouts use the key itself, anything else a key derived for it (HKDF), so one purpose's ciphertext never opens under another's. */
export type Purpose = "payout" | "totp";

function key(purpose: Purpose): Buffer {
  if (purpose === "payout") return masterKey();
  return Buffer.from(hkdfSync("sha256", masterKey(), Buffer.alloc(0), `raffle-rush ${purpose} v1`, 32));
}

export function encrypt(plain: string, purpose: Purpose = "payout"): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(purpose), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), data].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

export function decrypt(sealed: string, purpose: Purpose = "payout"): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || !data) throw new Error("unknown sealed format");
  const decipher = createDecipheriv("aes-256-gcm", key(purpose), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}

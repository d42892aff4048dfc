import { createPrivateKey, createPublicKey, hkdfSync, sign, type KeyObject } from "node:crypto";
import { remember } from "@epic-web/remember";
import { lastingSecret } from "./session-secret.server";

/**
 * The Ed25519 key that signs entry receipts (ADR 079). Derived with HKDF from the lasting
 * secret (ADR 086), so every machine signs with the same key and rotating the session secret
 * leaves it; the label separates it from every other use of that secret.
 */
const LABEL = "raffle-rush entry receipts: ed25519 signing key v1";
/** PKCS #8 wrapping of a raw 32-byte Ed25519 private key (RFC 8410). */
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

type ReceiptKey = { privateKey: KeyObject; publicKeyHex: string };

function receiptKey(): ReceiptKey {
  const secret = lastingSecret();
  // One derivation per secret (the tests' servers may each have their own).
  const keys = remember("receipt-keys", () => new Map<string, ReceiptKey>());
  let key = keys.get(secret);
  if (!key) {
    const seed = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), LABEL, 32));
    const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" });
    const jwk = createPublicKey(privateKey).export({ format: "jwk" });
    key = { privateKey, publicKeyHex: Buffer.from(String(jwk.x), "base64url").toString("hex") };
    keys.set(secret, key);
  }
  return key;
}

/** The receipt key's public half (32 bytes, hex), which /fair publishes. */
export function receiptPublicKey(): string {
  return receiptKey().publicKeyHex;
}

/** An Ed25519 signature (hex) of the message's UTF-8 bytes. */
export function signReceiptMessage(message: string): string {
  return sign(null, Buffer.from(message, "utf8"), receiptKey().privateKey).toString("hex");
}

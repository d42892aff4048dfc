import { createHash, randomBytes } from "node:crypto";

/** Ten per factor, shown once. */
export const RECOVERY_CODE_COUNT = 10;

/** Crockford's base32 without I, L, O, U: codes read aloud or copied by hand survive. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A code of 80 random bits in four groups of four ("7K3M-Q9XD-2H6P-WB4N"). */
export function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let text = "";
  for (let i = 0; i < 16; i++) {
    text = ALPHABET[Number(bits & 31n)] + text;
    bits >>= 5n;
  }
  return text.match(/.{4}/g)!.join("-");
}

/** What is typed is normalised first: case, spaces and dashes do not matter, nor O for 0 or I/L for 1. */
export function normaliseRecoveryCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
}

/** Whether what was typed has a recovery code's shape (16 characters of the alphabet), not a 6-digit TOTP code. */
export function looksLikeRecoveryCode(typed: string): boolean {
  return /^[0-9A-HJKMNP-TV-Z]{16}$/.test(normaliseRecoveryCode(typed));
}

/** SHA-256 is enough: 80 random bits cannot be guessed offline, unlike a password. */
export function hashRecoveryCode(typed: string): string {
  return createHash("sha256").update(normaliseRecoveryCode(typed)).digest("hex");
}

/**
 * Looks for card data where none may be (PCI DSS: no stored or logged card number, never
 * a CVV): Luhn-valid numbers of 13 to 19 digits with a card issuer's prefix, written
 * plainly or in groups ("4000 0566 5566 5556", "4000-0566-…", "4000+0566…", "4000_0566…",
 * "4000.0566…" or "4000%200566…" in URLs), or percent-encoded digit by digit ("%34%30…"), and CVVs, found by their label ("CVV: 123", `"cvc":"123"`,
 * `cvc=123`) or, for CVVs a test itself sent, by their value. Written apart from the
 * app's own masking, so a mistake in one is not repeated in the other.
 */
export type CardFinding = { kind: "card number" | "cvv"; match: string; context: string };

/** A digit, plain or percent-encoded ("%34"), and what may separate two: space, "+", "-", ".", "_", "/", plain or encoded. */
const CANDIDATE = /(?<![\w.-])(?:\d|%3\d)(?:(?:[ +._/-]|%20|%2[bdef]|%5f)?(?:\d|%3\d)){12,18}(?![\w-])/gi;
/** Visa, Mastercard (51-55 and 2221-2720), American Express, Diners, JCB, Discover, UnionPay, Maestro. */
const ISSUER = /^(4|5[0-8]|2[2-7]|3[0-9]|6)/;
const LABELLED_CVV = /\b(?:cvv2?|cvc2?|csc|cid|card[ _-]?verification(?:[ _-]?(?:value|code))?|security[ _-]?code)\b["'\s:=]{0,4}(\d{3,4})\b/gi;

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function around(text: string, index: number, length: number): string {
  return text.slice(Math.max(0, index - 60), index + length + 60).replace(/\s+/g, " ");
}

export function findCardData(text: string, { cvvs = [] }: { cvvs?: string[] } = {}): CardFinding[] {
  const findings: CardFinding[] = [];
  for (const match of text.matchAll(CANDIDATE)) {
    const digits = match[0].replace(/%3(\d)/g, "$1").replace(/%[0-9a-f]{2}|\D/gi, "");
    if (digits.length >= 13 && digits.length <= 19 && ISSUER.test(digits) && luhnValid(digits)) {
      findings.push({ kind: "card number", match: match[0], context: around(text, match.index, match[0].length) });
    }
  }
  for (const match of text.matchAll(LABELLED_CVV)) {
    findings.push({ kind: "cvv", match: match[0], context: around(text, match.index, match[0].length) });
  }
  for (const cvv of cvvs) {
    for (const match of text.matchAll(new RegExp(`(?<![\\w.-])${cvv}(?![\\w-])`, "g"))) {
      findings.push({ kind: "cvv", match: match[0], context: around(text, match.index, match[0].length) });
    }
  }
  return findings;
}

/**
 * The email as it names a person: trimmed and lower-cased, a "+tag" dropped from
 * the mailbox, and for Gmail the dots too (the same inbox). Used only to recognise a person
 * across accounts (their self-exclusion and limits, their welcome coins), never to send mail.
 */
export function normaliseEmail(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (domain === "googlemail.com") domain = "gmail.com";
  if (domain === "gmail.com") local = local.replaceAll(".", "");
  return `${local}@${domain}`;
}

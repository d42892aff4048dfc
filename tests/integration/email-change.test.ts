import type { ParsedMail } from "mailparser";
import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { deliverDueMail } from "~/infra/mail/outbox.server";
import { hashPassword } from "~/services/accounts/password.server";
import { call, pageText, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";
import { fieldError, formAlerts } from "../support/field-error";
import { setUpSmtp } from "../support/smtp";

/**
 * Changing the email (ADR 037): asked with the password, confirmed from the new address
 * (link or code, each once), the old address told, the account moved only when confirmed.
 */
const smtp = setUpSmtp();
const PASSWORD = "my password of old";

async function drain() {
  while ((await deliverDueMail()) > 0);
}

async function player() {
  const user = await createTestUser({ emailVerified: true });
  await db().user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(PASSWORD) } });
  return { ...user, cookie: await sessionCookie(user.id) };
}

const newAddress = (id: string, n = 1) => `new-${n}-${id.slice(0, 8)}@test.local`;
const ask = (cookie: string, newEmail: string, password = PASSWORD) =>
  call("/account/email", { method: "POST", cookie, form: { intent: "request", newEmail, password } });
const emailOf = async (id: string) => db().user.findUniqueOrThrow({ where: { id }, select: { email: true, emailVerifiedAt: true } });

function lastMailTo(email: string): ParsedMail {
  const all = smtp.to(email);
  expect(all.length, `mail to ${email}`).toBeGreaterThan(0);
  return all.at(-1)!;
}
const linkToken = (mail: ParsedMail) => /\/account\/email\?token=([\w-]{43})/.exec(mail.text ?? "")![1]!;
const code = (mail: ParsedMail) => /Your code: (\d{6})/.exec(mail.text ?? "")![1]!;

describe("changing the email", () => {
  it("changes nothing until the new address is confirmed by its link, which works once; the old address is told", async () => {
    const p = await player();
    const target = newAddress(p.id);
    const asked = await ask(p.cookie, target.toUpperCase());
    expect(asked.status).toBe(302);
    expect(asked.headers.get("Location")).toBe("/account/email");
    // Still the old, verified address; the page says what it waits for.
    expect(await emailOf(p.id)).toMatchObject({ email: p.email });
    expect(await pageText(await call("/account/email", { cookie: p.cookie }))).toContain(target);
    await drain();
    const mail = lastMailTo(target);
    expect(mail.subject).toBe("Confirm your new email address");
    expect(smtp.to(p.email).filter((m) => m.subject === "Your email address was changed")).toHaveLength(0);

    // The link's page asks to confirm; only the POST (no session needed) changes the address.
    const token = linkToken(mail);
    expect((await call(`/account/email?token=${token}`)).status).toBe(200);
    expect(await emailOf(p.id)).toMatchObject({ email: p.email });
    const confirmed = await call(`/account/email?token=${token}`, { method: "POST", form: { intent: "link", token } });
    expect(confirmed.status).toBe(302);
    const after = await emailOf(p.id);
    expect(after.email).toBe(target);
    expect(after.emailVerifiedAt).not.toBeNull();

    // Used once: a second confirmation is refused and changes nothing.
    const again = await call(`/account/email?token=${token}`, { method: "POST", form: { intent: "link", token } });
    expect(again.status).toBe(400);
    expect(formAlerts(await pageText(again))).toEqual([expect.stringMatching(/expired or was already used/)]);

    await drain();
    const notice = lastMailTo(p.email);
    expect(notice.subject).toBe("Your email address was changed");
    expect(notice.text).toContain(target);
    expect(
      await db().auditEvent.count({ where: { target: `user:${p.id}`, action: { in: ["account.email_change_requested", "account.email_changed"] } } }),
    ).toBe(2);
  });

  it("confirms with the code once, and ends links sent to the old address", async () => {
    const p = await player();
    expect((await call("/forgot-password", { method: "POST", form: { email: p.email }, ip: "198.51.100.31" })).status).toBe(200);
    const target = newAddress(p.id);
    expect((await ask(p.cookie, target)).status).toBe(302);
    await drain();
    const sent = code(lastMailTo(target));
    const wrong = sent === "000000" ? "111111" : "000000";
    const refused = await call("/account/email", { method: "POST", cookie: p.cookie, form: { intent: "code", code: wrong } });
    expect(refused.status).toBe(400);
    expect(fieldError(await pageText(refused), "email-code-code")).toMatch(/^That code is not right, or it has expired/);
    expect(await emailOf(p.id)).toMatchObject({ email: p.email });
    expect((await call("/account/email", { method: "POST", cookie: p.cookie, form: { intent: "code", code: sent } })).status).toBe(302);
    expect((await emailOf(p.id)).email).toBe(target);
    expect((await call("/account/email", { method: "POST", cookie: p.cookie, form: { intent: "code", code: sent } })).status).toBe(400);
    // The reset link sent to the old address no longer works.
    expect(await db().emailToken.count({ where: { userId: p.id, usedAt: null } })).toBe(0);
  });

  it("needs the password, refuses an address another account uses, and is limited per account", async () => {
    const p = await player();
    const other = await createTestUser();
    const wrong = await ask(p.cookie, newAddress(p.id), "not my password");
    expect(wrong.status).toBe(400);
    const wrongPage = await pageText(wrong);
    expect(fieldError(wrongPage, "email-request-password")).toBe("That password is not right.");
    expect(wrongPage).not.toContain("not my password");
    const taken = await ask(p.cookie, other.email);
    expect(taken.status).toBe(400);
    expect(fieldError(await pageText(taken), "email-request-newEmail")).toBe("Another account uses that email address.");
    expect(await db().emailToken.count({ where: { userId: p.id, purpose: "change_email" } })).toBe(0);
    // 5 an hour: the two refusals above counted (counted first), three more pass, the next is 429.
    for (let n = 1; n <= 3; n++) expect((await ask(p.cookie, newAddress(p.id, n))).status).toBe(302);
    const limited = await ask(p.cookie, newAddress(p.id, 9));
    expect(limited.status).toBe(429);
    expect(formAlerts(await pageText(limited))).toHaveLength(1);
    // Only the latest request is live; older ones were ended when it was made.
    expect(await db().emailToken.count({ where: { userId: p.id, purpose: "change_email", usedAt: null } })).toBe(1);
  });

  it("refuses the change when another account took the address before it was confirmed", async () => {
    const p = await player();
    const target = newAddress(p.id);
    expect((await ask(p.cookie, target)).status).toBe(302);
    await drain();
    const token = linkToken(lastMailTo(target));
    await db().user.create({ data: { email: target } });
    const refused = await call(`/account/email?token=${token}`, { method: "POST", form: { intent: "link", token } });
    expect(refused.status).toBe(400);
    expect(await pageText(refused)).toMatch(/Another account uses that email address now/);
    expect((await emailOf(p.id)).email).toBe(p.email);
  });

  it("is asked for with a signed-in session", async () => {
    expect(
      (await call("/account/email", { method: "POST", form: { intent: "request", newEmail: "x@test.local", password: PASSWORD } })).headers.get("Location"),
    ).toMatch(/^\/api\/login/);
  });
});

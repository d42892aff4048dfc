import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { forgetEnv } from "~/infra/env.server";
import { mailFolder } from "~/infra/mail/transport.server";
import { call, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";

/**
 * The demo mailbox hands out no accounts (issue 31, item 9; ADR 054): open to all only on
 * a local embedded database; on a shared demo (DATABASE_URL), a signed-in account reads
 * its own mail and nothing else.
 */
async function mailTo(to: string, subject: string): Promise<string> {
  const id = `${Date.now()}-${randomBytes(6).toString("hex")}`;
  await mkdir(mailFolder(), { recursive: true });
  const text = [
    `From: Raffle Rush <noreply@demo.test>`,
    `To: ${to}`,
    `Subject: ${subject}`,
    `Date: ${new Date().toUTCString()}`,
    "",
    `Open http://localhost/reset-password?token=${id}`,
    "",
  ];
  await writeFile(path.join(mailFolder(), `${id}.eml`), text.join("\r\n"));
  return id;
}

const text = async (response: Response) => response.text();

afterEach(() => {
  delete process.env.DATABASE_URL;
  forgetEnv();
});

describe("the demo mailbox", () => {
  it("is open to all on a local embedded database", async () => {
    const subject = `Reset ${randomBytes(4).toString("hex")}`;
    const id = await mailTo("someone@example.com", subject);
    const list = await call("/dev/mail");
    expect(list.status).toBe(200);
    expect(await text(list)).toContain(subject);
    expect((await call(`/dev/mail/${id}`)).status).toBe(200);
  });

  it("on a shared demo, shows a signed-in account its own mail only, and nothing to anyone signed out", async () => {
    const [owner, other] = [await createTestUser(), await createTestUser()];
    const mine = `Yours ${randomBytes(4).toString("hex")}`;
    const theirs = `Reset your password ${randomBytes(4).toString("hex")}`;
    const myId = await mailTo(owner.email, mine);
    const theirId = await mailTo(`The Other <${other.email.toUpperCase()}>`, theirs);
    process.env.DATABASE_URL = "postgres://db.internal/raffle_demo";
    forgetEnv();

    // Signed out: sent to sign in, nothing shown.
    for (const url of ["/dev/mail", `/dev/mail/${theirId}`]) {
      const anonymous = await call(url);
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.get("Location")).toMatch(/^\/api\/login\?returnTo=/);
      expect(await text(anonymous)).not.toContain("reset-password");
    }
    const cookie = await sessionCookie(owner.id);
    const list = await text(await call("/dev/mail", { cookie }));
    expect(list).toContain(mine);
    expect(list).not.toContain(theirs);
    expect((await call(`/dev/mail/${myId}`, { cookie })).status).toBe(200);
    // Another's message is not there for this account, even by its id.
    const stolen = await call(`/dev/mail/${theirId}`, { cookie });
    expect(stolen.status).toBe(404);
    expect(await text(stolen)).not.toContain("reset-password?token=");
    // Its owner reads it (the address is matched whatever its case).
    expect((await call(`/dev/mail/${theirId}`, { cookie: await sessionCookie(other.id) })).status).toBe(200);
  });
});

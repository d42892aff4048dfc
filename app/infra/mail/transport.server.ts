import { remember } from "@epic-web/remember";
import { randomBytes } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { dataPath } from "~/infra/data-dir.server";
import { getEnv } from "~/infra/env.server";
import type { RenderedMail } from "./templates";

/**
 * Sends a rendered message: over SMTP when SMTP_URL is set, otherwise written as an .eml
 * file under DATA_DIR/mail (the fresh-machine default; /dev/mail lists them in demo mode).
 * The Message-ID comes from the outbox row, so a message sent twice after a crash carries
 * the same id both times and mail clients show it once.
 */
export type OutgoingMail = RenderedMail & { to: string; messageId: string; date: Date };

/** One transport per process (remember), made from SMTP_URL on first use. */
const mailer = () => remember("raffle:mailer", (): { transport?: Transporter } => ({}));

function transporter(): Transporter {
  const held = mailer();
  const env = getEnv();
  held.transport ??= env.SMTP_URL
    ? nodemailer.createTransport(env.SMTP_URL)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return held.transport;
}

/** Closes the transport, so that the next message uses SMTP_URL as it is then (tests point it at their server). */
export function forgetTransport(): void {
  const held = mailer();
  held.transport?.close();
  held.transport = undefined;
}

/** The folder of .eml files when no SMTP_URL is set. */
export const mailFolder = () => dataPath("mail");

/** The domain of MAIL_FROM, for Message-IDs. */
function senderDomain(): string {
  return /@([^>\s]+)>?\s*$/.exec(getEnv().MAIL_FROM)?.[1] ?? "raffle-rush.invalid";
}

export function messageIdFor(outboxId: string): string {
  return `<${outboxId}@${senderDomain()}>`;
}

export async function deliver(mail: OutgoingMail): Promise<void> {
  const info = await transporter().sendMail({
    from: getEnv().MAIL_FROM,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: mail.messageId,
    date: mail.date,
  });
  if (getEnv().SMTP_URL) return;
  // Named by the Message-ID: a message written again after a crash replaces its first copy.
  // Written without blocking: the process sending mail also answers requests and streams.
  const folder = mailFolder();
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const name = `${mail.date.getTime()}-${mail.messageId.replace(/[<>]/g, "").split("@")[0]}.eml`;
  const draft = path.join(folder, `.${name}.${randomBytes(4).toString("hex")}`);
  await writeFile(draft, (info as unknown as { message: Buffer }).message, { mode: 0o600 });
  await rename(draft, path.join(folder, name));
}

import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { simpleParser } from "mailparser";
import { mailFolder } from "./transport.server";

/**
 * The .eml files written without SMTP_URL, read back for /dev/mail (demo mode only), so
 * that a person trying the site on a fresh machine can open the messages and click their
 * links.
 */
const EML = /^(\d+)-([\w-]+)\.eml$/;
/** The newest this many are listed. */
const LISTED = 100;

export type MailSummary = { id: string; to: string; subject: string; date: string };

/** Whose mail a reader may see: every message (a local embedded database), or one address's. */
export type MailReader = { all: true } | { all: false; email: string };

/** A message's file read back: its summary for the list, and its plain text. */
async function readEml(file: string): Promise<MailSummary & { text: string; addresses: string[] }> {
  const mail = await simpleParser(await readFile(path.join(mailFolder(), file)));
  const to = mail.to ? [mail.to].flat() : [];
  return {
    addresses: to.flatMap((list) => list.value.map((a) => (a.address ?? "").toLowerCase())),
    id: file.replace(/\.eml$/, ""),
    to: to.map((list) => list.text).join(", "),
    subject: mail.subject ?? "",
    // The file's name begins with when it was written.
    date: (mail.date ?? new Date(Number(EML.exec(file)![1]))).toISOString(),
    text: mail.text ?? "",
  };
}

const mayRead = (reader: MailReader, mail: { addresses: string[] }) => reader.all || mail.addresses.includes(reader.email.toLowerCase());

/** The newest messages this reader may see. */
export async function listDevMail(reader: MailReader): Promise<MailSummary[]> {
  let files: string[];
  try {
    files = (await readdir(mailFolder())).filter((f) => EML.test(f));
  } catch {
    return [];
  }
  files.sort().reverse();
  const listed: MailSummary[] = [];
  // Newest first, until the list is full: a reader of one address reads past others' mail.
  for (let i = 0; i < files.length && listed.length < LISTED; i += LISTED) {
    const mail = await Promise.all(files.slice(i, i + LISTED).map(readEml));
    for (const { id, to, subject, date, addresses } of mail) if (mayRead(reader, { addresses })) listed.push({ id, to, subject, date });
  }
  return listed.slice(0, LISTED);
}

/** One message's plain text, or undefined for an unknown id or another's message (the id must be a file name we wrote). */
export async function readDevMail(id: string, reader: MailReader): Promise<(MailSummary & { text: string }) | undefined> {
  const file = `${id}.eml`;
  if (!EML.test(file)) return undefined;
  try {
    const { addresses, ...mail } = await readEml(file);
    return mayRead(reader, { addresses }) ? mail : undefined;
  } catch {
    return undefined;
  }
}

import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { simpleParser } from "mailparser";
import { mailFolder } from "./transport.server";

/**
 * The .eml files written without SMTP_URL, read back for /dev/mail (demo mode only), so
 * that a person trying the site on a fresh machine can open the messages and click their
 * links (ADR 032).
 */
const EML = /^(\d+)-([\w-]+)\.eml$/;
/** The newest this many are listed. */
const LISTED = 100;

export type MailSummary = { id: string; to: string; subject: string; date: string };

/** A message's file read back: its summary for the list, and its plain text. */
async function readEml(file: string): Promise<MailSummary & { text: string }> {
  const mail = await simpleParser(await readFile(path.join(mailFolder(), file)));
  const to = mail.to ? [mail.to].flat().map((address) => address.text) : [];
  return {
    id: file.replace(/\.eml$/, ""),
    to: to.join(", "),
    subject: mail.subject ?? "",
    // The file's name begins with when it was written.
    date: (mail.date ?? new Date(Number(EML.exec(file)![1]))).toISOString(),
    text: mail.text ?? "",
  };
}

export async function listDevMail(): Promise<MailSummary[]> {
  let files: string[];
  try {
    files = (await readdir(mailFolder())).filter((f) => EML.test(f));
  } catch {
    return [];
  }
  files.sort().reverse();
  return Promise.all(
    files.slice(0, LISTED).map(async (file) => {
      const { id, to, subject, date } = await readEml(file);
      return { id, to, subject, date };
    }),
  );
}

/** One message's plain text, or undefined for an unknown id (the id must be a file name we wrote). */
export async function readDevMail(id: string): Promise<(MailSummary & { text: string }) | undefined> {
  const file = `${id}.eml`;
  if (!EML.test(file)) return undefined;
  try {
    return await readEml(file);
  } catch {
    return undefined;
  }
}

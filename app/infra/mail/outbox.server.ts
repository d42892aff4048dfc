import * as outbox from "~/models/system/email-outbox.server";
import { rafflesAwaitDraw } from "~/models/raffles/raffle.server";
import type { Tx } from "~/models/db.server";
import { getEnv } from "~/infra/env.server";
import { getLogger } from "~/infra/logger.server";
import { OPTIONAL_KINDS, renderMail, type MailData, type MailKind, MAIL_KINDS } from "./templates";
import { deliver, messageIdFor } from "./transport.server";

/**
 * Mail goes through an outbox (docs/decisions/032-email-outbox-and-recovery.md): the
 * action writes the message in its own transaction (`queueMail`), so it is sent if and
 * only if the action committed, and sending never blocks or breaks the action. One
 * sender loop per process that runs the jobs sends due messages with retries and
 * exponential backoff; rows are claimed with a lease (FOR UPDATE SKIP LOCKED), so several
 * instances never send the same row at once.
 *
 * At least once: a sender that dies after the SMTP server accepted a message and before
 * it marked the row sent leaves the row to be sent again when its lease ends. Both copies
 * carry the same Message-ID (from the row's id), which mail clients use to show one.
 */
export const MAIL_LEASE_MS = 2 * 60_000;
/** After this many attempts a message is given up (status failed, logged as an error). */
export const MAIL_MAX_ATTEMPTS = 8;
const BACKOFF_FIRST_MS = 30_000;
const BACKOFF_MAX_MS = 60 * 60_000;

/** 30 s after the first failure, doubling, at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.max(0, attempts - 1));
}

/** Writes a message in the caller's transaction, once per (event, kind) key. */
export function queueMail(tx: Tx, mail: { key: string; kind: MailKind; userId: string; data: MailData; to?: string }): Promise<void> {
  return outbox.insertMail(tx, { ...mail, data: jsonData(mail.data), optional: OPTIONAL_KINDS.has(mail.kind) });
}

/** A message to an address with no account behind it. */
export function queueMailToAddress(tx: Tx, mail: { key: string; kind: MailKind; to: string; data: MailData }): Promise<void> {
  return outbox.insertMailToAddress(tx, { ...mail, data: jsonData(mail.data) });
}

function jsonData(data: MailData) {
  return Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined)) as Record<string, string | number | boolean | null>;
}

/** Where links in mail point: PUBLIC_URL, or this server on localhost. */
export function siteUrl(): string {
  const env = getEnv();
  return env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
}

const isKind = (kind: string): kind is MailKind => (MAIL_KINDS as readonly string[]).includes(kind);

/**
 * Sends up to `limit` due messages; returns how many were sent. Each is claimed first
 * (committed), then sent, then marked: a failure is retried after `retryDelayMs`, and
 * given up after MAIL_MAX_ATTEMPTS.
 */
export async function deliverDueMail({ now = new Date(), limit = 20, leaseMs = MAIL_LEASE_MS } = {}): Promise<number> {
  const claimed = await outbox.claimDueMail(now, limit, leaseMs);
  let sent = 0;
  for (const row of claimed) {
    try {
      if (!isKind(row.kind)) throw new Error(`unknown kind of mail ${row.kind}`);
      const rendered = renderMail(row.kind, row.data as MailData, siteUrl());
      await deliver({ ...rendered, to: row.toAddress, messageId: messageIdFor(row.id), date: row.createdAt });
      await outbox.markSent(row.id, row.attempts, new Date());
      sent += 1;
    } catch (error) {
      const retryAt = row.attempts >= MAIL_MAX_ATTEMPTS ? null : new Date(now.getTime() + retryDelayMs(row.attempts));
      const message = error instanceof Error ? error.message : String(error);
      await outbox.markNotSent(row.id, row.attempts, message, retryAt);
      const log = { event: "mail_not_sent", mailId: row.id, kind: row.kind, attempts: row.attempts, error: message };
      if (retryAt) getLogger().warn(log, "mail not sent; will retry");
      else getLogger().error(log, "mail not sent; gave up");
    }
  }
  return sent;
}

/** How often the sender looks for due mail when none is known to be due sooner. */
export const MAIL_POLL_MS = 1_000;

/**
 * Draws come first: while a raffle that ended this recently waits to be drawn,
 * the sender leaves the machine and the database to the draw. A raffle active longer
 * after its end than this (a stopped scheduler) no longer holds the mail back.
 */
export const DRAWS_FIRST_WITHIN_MS = 30_000;
/** How soon the sender looks again while draws come first. */
const DRAWS_FIRST_RECHECK_MS = 100;

/**
 * One pass of the sender: nothing while a raffle waits to be drawn ("draws first"), else
 * up to `limit` due messages sent. Winners' messages are written by the draws themselves,
 * so a thousand raffles ending together send their mail once they are drawn, not while.
 */
export async function mailPass({ now = new Date(), limit = 20 } = {}): Promise<number | "draws first"> {
  if (await rafflesAwaitDraw(now, DRAWS_FIRST_WITHIN_MS)) return "draws first";
  return deliverDueMail({ now, limit });
}

/** The sender loop, started with the other jobs (server.ts). */
export function startMailSender({ intervalMs = MAIL_POLL_MS } = {}) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = mailPass()
      .then(async (sent) => {
        if (sent === "draws first") return DRAWS_FIRST_RECHECK_MS;
        if (sent === 0) return Math.max(0, Math.min(intervalMs, ((await outbox.nextMailDue())?.getTime() ?? Infinity) - Date.now()));
        getLogger().info({ sent }, "mail sent");
        return 0;
      })
      .catch((error: unknown) => {
        getLogger().error({ err: error }, "mail sender pass failed");
        return intervalMs;
      })
      .then((ms) => {
        if (!stopped) timer = setTimeout(tick, ms);
      });
  };
  tick();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

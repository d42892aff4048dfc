import { remember } from "@epic-web/remember";
import pg from "pg";
import { connectedDatabaseUrl } from "~/models/db.server";
import { AnnouncementReader, FORGET_AFTER_MS, forgetBefore, WAKE_CHANNEL } from "./announcements.server";
import { getLogger } from "./logger.server";

/**
 * The process's one listening connection to PostgreSQL: live game events for the browsers'
 * streams, and the changes that invalidate what is kept in memory
 * (app/infra/read-model.server.ts). What transactions announce is read on it after their
 * commit (app/infra/announcements.server.ts, ADR 111), a transaction's announcements in the
 * order they were written, never for a rollback.
 *
 * While the connection is down, announcements are missed: the handlers of `onStatus` hear
 * it at once (memory caches empty themselves and stop caching), and it reconnects.
 * Kept by hand rather than pg-listen, whose connection check has no timeout, whose first
 * connection is never retried and which reports no "down" (docs/decisions/041).
 */
export const CHANNELS = ["raffle_events", "read_model"] as const;
export type Channel = (typeof CHANNELS)[number];

/** The listening connection's application_name, as pg_stat_activity shows it. */
export const LISTENER_NAME = "raffle-listener";

const RECONNECT_DELAY_MS = 1_000;
/**
 * A read of the announcements is given this long to answer: a socket that died without a
 * word (a dropped route, a silent proxy) would otherwise look alive while nothing is read.
 */
const READ_TIMEOUT_MS = 5_000;

type Handler = (payload: string) => void;
type StatusHandler = (up: boolean) => void;
type Hub = {
  handlers: Map<Channel, Set<Handler>>;
  statusHandlers: Set<StatusHandler>;
  client?: pg.Client;
  connecting?: Promise<void>;
  up: boolean;
  /** Keep reconnecting (between startListening and stopListening). */
  wanted: boolean;
  retry?: ReturnType<typeof setTimeout>;
  reader?: AnnouncementReader;
  /** Deletes the announcements every reader has read, every FORGET_AFTER_MS. */
  forgetting?: ReturnType<typeof setInterval>;
  /** A wake-up on its way, and whether another was asked for meanwhile. */
  waking?: boolean;
  wakeAgain?: boolean;
};

function hub(): Hub {
  return remember("raffle:listener", (): Hub => ({ handlers: new Map(), statusHandlers: new Set(), up: false, wanted: false }));
}

function setUp(h: Hub, up: boolean) {
  if (h.up === up) return;
  h.up = up;
  for (const handler of h.statusHandlers) handler(up);
}

/** One reconnection attempt pending at a time, and none once listening is no longer wanted. */
function scheduleRetry(h: Hub) {
  if (!h.wanted || h.retry) return;
  h.retry = setTimeout(() => {
    h.retry = undefined;
    connect(h).catch(() => {}); // a failed attempt schedules the next one itself
  }, RECONNECT_DELAY_MS);
  h.retry.unref();
}

/** Lets go of the current connection (its reader too) and tells the status handlers; returns it to be ended. */
function detach(h: Hub): pg.Client | undefined {
  const client = h.client;
  h.client = undefined;
  h.reader?.stop();
  h.reader = undefined;
  clearInterval(h.forgetting);
  h.forgetting = undefined;
  setUp(h, false);
  return client;
}

function lost(h: Hub, client: pg.Client, error?: unknown) {
  if (h.client !== client) return;
  detach(h);
  client.end().catch(() => {});
  if (!h.wanted) return;
  getLogger().warn({ err: error }, "listening connection lost; reconnecting");
  scheduleRetry(h);
}

function dispatch(h: Hub, channel: string, payload: string | undefined) {
  const handlers = h.handlers.get(channel as Channel);
  if (!handlers || payload === undefined) return;
  for (const handler of handlers) {
    try {
      handler(payload);
    } catch (error) {
      // One handler's failure must not keep the notification from the others.
      getLogger().error({ err: error, channel }, "a notification handler failed");
    }
  }
}

function connect(h: Hub): Promise<void> {
  if (h.client) return Promise.resolve();
  h.connecting ??= (async () => {
    let client: pg.Client | undefined;
    let reader: AnnouncementReader | undefined;
    try {
      // Its own commits (wake-ups, deleting what was read) need not wait for the disk.
      client = new pg.Client({
        connectionString: connectedDatabaseUrl(),
        keepAlive: true,
        application_name: LISTENER_NAME,
        options: "-c synchronous_commit=off",
      });
      const c = client;
      c.on("error", (error) => lost(h, c, error));
      c.on("end", () => lost(h, c));
      await c.connect();
      reader = new AnnouncementReader(
        c,
        ({ channel, payload }) => dispatch(h, channel, payload),
        (error) => lost(h, c, error),
        {
          timeoutMs: READ_TIMEOUT_MS,
        },
      );
      await reader.start();
    } catch (error) {
      reader?.stop();
      client?.end().catch(() => {});
      scheduleRetry(h);
      throw error;
    }
    if (!h.wanted) {
      // stopListening came while this attempt was on its way.
      reader.stop();
      await client.end().catch(() => {});
      return;
    }
    const [c, r] = [client, reader];
    h.client = c;
    h.reader = r;
    let horizon: string | undefined;
    h.forgetting = setInterval(() => {
      // What ended before the last tick's horizon, FORGET_AFTER_MS ago, every reader has read.
      if (horizon) forgetBefore(c, horizon).catch((error: unknown) => getLogger().warn({ err: error }, "could not delete old announcements"));
      horizon = r.horizon;
    }, FORGET_AFTER_MS);
    h.forgetting.unref();
    setUp(h, true);
  })().finally(() => {
    h.connecting = undefined;
  });
  return h.connecting;
}

/** Connects (if not yet) and keeps the connection up until stopListening; rejects when this attempt fails. */
export function startListening(): Promise<void> {
  const h = hub();
  h.wanted = true;
  return connect(h);
}

export async function stopListening(): Promise<void> {
  const h = hub();
  h.wanted = false;
  if (h.retry) clearTimeout(h.retry);
  h.retry = undefined;
  await h.connecting?.catch(() => {});
  await detach(h)
    ?.end()
    .catch(() => {});
}

export function isListening(): boolean {
  return hub().up;
}

/** Calls `handler` with each notification's payload on `channel`; returns the unsubscribe function. */
export function onNotification(channel: Channel, handler: Handler): () => void {
  const h = hub();
  let handlers = h.handlers.get(channel);
  if (!handlers) h.handlers.set(channel, (handlers = new Set()));
  handlers.add(handler);
  return () => handlers.delete(handler);
}

/** Calls `handler(up)` whenever the connection comes up or goes down. */
export function onStatus(handler: StatusHandler): () => void {
  const h = hub();
  h.statusHandlers.add(handler);
  return () => h.statusHandlers.delete(handler);
}

/**
 * Tells every instance to read the announcements now: call it after a commit that announced
 * something (the reads every READ_EVERY_MS catch any other). A NOTIFY in a transaction of its
 * own, which waits for no disk flush; one at a time, and one more if asked meanwhile.
 */
export function wake(): void {
  const h = hub();
  const client = h.client;
  if (!client) return;
  if (h.waking) {
    h.wakeAgain = true;
    return;
  }
  h.waking = true;
  h.wakeAgain = false;
  client
    .query(`NOTIFY ${WAKE_CHANNEL}`)
    .catch(() => {}) // a lost connection is told by its own handlers
    .finally(() => {
      h.waking = false;
      if (h.wakeAgain) wake();
    });
}

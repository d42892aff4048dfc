import { remember } from "@epic-web/remember";
import pg from "pg";
import { connectedDatabaseUrl } from "~/models/db.server";
import { getLogger } from "./logger.server";

/**
 * The process's one listening connection to PostgreSQL (LISTEN/NOTIFY): live game events
 * for the browsers' streams, and the changes that invalidate what is kept in memory
 * (app/infra/read-model.server.ts). A transaction's notifications arrive on it in the
 * order they were sent, after its commit, never for a rollback.
 *
 * While the connection is down, notifications are lost: the handlers of `onStatus` hear
 * it at once (memory caches empty themselves and stop caching), and it reconnects.
 * Kept by hand rather than pg-listen, whose connection check has no timeout, whose first
 * connection is never retried and which reports no "down" (docs/decisions/041).
 */
export const CHANNELS = ["raffle_events", "read_model"] as const;
export type Channel = (typeof CHANNELS)[number];

const RECONNECT_DELAY_MS = 1_000;
/**
 * The connection is asked a question this often, and given this long to answer: a socket
 * that died without a word (a dropped route, a silent proxy) would otherwise look alive
 * while no notification arrives.
 */
const HEARTBEAT_MS = 5_000;
const HEARTBEAT_TIMEOUT_MS = 5_000;

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
  heartbeat?: ReturnType<typeof setInterval>;
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

/** Lets go of the current connection (its heartbeat too) and tells the status handlers; returns it to be ended. */
function detach(h: Hub): pg.Client | undefined {
  const client = h.client;
  h.client = undefined;
  if (h.heartbeat) clearInterval(h.heartbeat);
  h.heartbeat = undefined;
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
    try {
      client = new pg.Client({ connectionString: connectedDatabaseUrl(), keepAlive: true });
      const c = client;
      c.on("notification", (message) => dispatch(h, message.channel, message.payload));
      c.on("error", (error) => lost(h, c, error));
      c.on("end", () => lost(h, c));
      await c.connect();
      for (const channel of CHANNELS) await c.query(`LISTEN ${channel}`);
    } catch (error) {
      client?.end().catch(() => {});
      scheduleRetry(h);
      throw error;
    }
    if (!h.wanted) {
      // stopListening came while this attempt was on its way.
      await client.end().catch(() => {});
      return;
    }
    const c = client;
    h.client = c;
    h.heartbeat = setInterval(() => {
      const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("heartbeat timed out")), HEARTBEAT_TIMEOUT_MS).unref());
      Promise.race([c.query("SELECT 1"), timeout]).catch((error: unknown) => lost(h, c, error));
    }, HEARTBEAT_MS);
    h.heartbeat.unref();
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

import pg from "pg";
import { connectedDatabaseUrl } from "~/models/db.server";
import { getLogger } from "./logger.server";

/**
 * The process's one listening connection to PostgreSQL (LISTEN/NOTIFY): live game events
 * for the browsers' streams, and the changes that invalidate what is kept in memory
 * (app/services/read-model.server.ts). A transaction's notifications arrive on it in the
 * order they were sent, after its commit, never for a rollback.
 *
 * While the connection is down, notifications are lost: the handlers of `onStatus` hear
 * it at once (memory caches empty themselves and stop caching), and it reconnects.
 */
export const CHANNELS = ["raffle_events", "read_model"] as const;
export type Channel = (typeof CHANNELS)[number];

const RECONNECT_DELAY_MS = 1_000;

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
};

const state = globalThis as unknown as { __raffleListener?: Hub };

function hub(): Hub {
  state.__raffleListener ??= { handlers: new Map(), statusHandlers: new Set(), up: false, wanted: false };
  return state.__raffleListener;
}

function setUp(h: Hub, up: boolean) {
  if (h.up === up) return;
  h.up = up;
  for (const handler of h.statusHandlers) handler(up);
}

function lost(h: Hub, client: pg.Client, error?: unknown) {
  if (h.client !== client) return;
  h.client = undefined;
  setUp(h, false);
  client.end().catch(() => {});
  if (!h.wanted) return;
  getLogger().warn({ err: error }, "listening connection lost; reconnecting");
  h.retry = setTimeout(() => {
    h.retry = undefined;
    connect(h).catch(() => {}); // connect() schedules the next attempt itself
  }, RECONNECT_DELAY_MS);
  h.retry.unref();
}

function connect(h: Hub): Promise<void> {
  if (h.client) return Promise.resolve();
  h.connecting ??= (async () => {
    const client = new pg.Client({ connectionString: connectedDatabaseUrl() });
    client.on("notification", (message) => {
      const handlers = h.handlers.get(message.channel as Channel);
      if (!handlers || message.payload === undefined) return;
      for (const handler of handlers) handler(message.payload);
    });
    client.on("error", (error) => lost(h, client, error));
    client.on("end", () => lost(h, client));
    try {
      await client.connect();
      for (const channel of CHANNELS) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      client.end().catch(() => {});
      if (h.wanted) {
        h.retry = setTimeout(() => {
          h.retry = undefined;
          connect(h).catch(() => {});
        }, RECONNECT_DELAY_MS);
        h.retry.unref();
      }
      throw error;
    }
    h.client = client;
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
  const client = h.client;
  h.client = undefined;
  setUp(h, false);
  await client?.end().catch(() => {});
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

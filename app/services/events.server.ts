import pg from "pg";
import { connectedDatabaseUrl } from "~/models/db.server";
import type { Tx } from "~/models/ledger.server";
import { getLogger } from "./logger.server";

/**
 * Live game events (pot changes, new rounds, draws) through PostgreSQL LISTEN/NOTIFY,
 * so that every instance hears what any instance did. Events are published inside the
 * transaction that caused them: they go out on commit, and never for a rollback.
 */
export const CHANNEL = "raffle_events";

export type GameEvent =
  | { type: "pot"; raffleId: string; kind: string; currentPot: string; participantCount: number; ticketCount: number }
  | { type: "round"; raffleId: string; kind: string; tier: string }
  | { type: "drawn"; raffleId: string; kind: string; outcome: "completed" | "cancelled"; winner?: string; prize?: string };

export async function publish(tx: Tx, event: GameEvent): Promise<void> {
  await tx.$executeRaw`SELECT pg_notify(${CHANNEL}, ${JSON.stringify(event)})`;
}

type Listener = (event: GameEvent) => void;
type Subscriber = { listener: Listener; onClose: () => void };

const state = globalThis as unknown as {
  __raffleEvents?: { subscribers: Set<Subscriber>; client?: Promise<pg.Client> };
};

function hub() {
  state.__raffleEvents ??= { subscribers: new Set() };
  return state.__raffleEvents;
}

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: connectedDatabaseUrl() });
  client.on("notification", (message) => {
    if (message.channel !== CHANNEL || !message.payload) return;
    const event = JSON.parse(message.payload) as GameEvent;
    for (const subscriber of hub().subscribers) subscriber.listener(event);
  });
  client.on("error", (error) => {
    getLogger().warn({ err: error }, "event listener connection lost; reconnecting on next subscriber");
    hub().client = undefined;
  });
  await client.connect();
  await client.query(`LISTEN ${CHANNEL}`);
  return client;
}

/**
 * Calls `listener` for every event from now on, and `onClose` when the process shuts
 * down; returns the unsubscribe function.
 */
export async function subscribe(listener: Listener, onClose: () => void = () => {}): Promise<() => void> {
  const h = hub();
  h.client ??= connect().catch((error) => {
    h.client = undefined;
    throw error;
  });
  await h.client;
  const subscriber = { listener, onClose };
  h.subscribers.add(subscriber);
  return () => h.subscribers.delete(subscriber);
}

/** Ends every open stream and the listening connection (at shutdown). */
export async function closeEvents(): Promise<void> {
  const h = hub();
  const client = h.client;
  h.client = undefined;
  for (const subscriber of [...h.subscribers]) subscriber.onClose();
  h.subscribers.clear();
  await (await client?.catch(() => undefined))?.end();
}

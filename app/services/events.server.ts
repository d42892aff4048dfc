import type { Tx } from "~/models/ledger.server";
import { onNotification, type Channel, startListening, stopListening } from "./listener.server";

/**
 * Live game events (pot changes, new rounds, draws) through PostgreSQL LISTEN/NOTIFY,
 * so that every instance hears what any instance did. Events are published inside the
 * transaction that caused them: they go out on commit, and never for a rollback.
 */
export const CHANNEL = "raffle_events" satisfies Channel;

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
  __raffleEvents?: { subscribers: Set<Subscriber>; unlisten?: () => void; closed?: boolean };
};

function hub() {
  state.__raffleEvents ??= { subscribers: new Set() };
  return state.__raffleEvents;
}

/**
 * Calls `listener` for every event from now on, and `onClose` when the process shuts
 * down; returns the unsubscribe function. Rejects when the database cannot be reached.
 */
export async function subscribe(listener: Listener, onClose: () => void = () => {}): Promise<() => void> {
  const h = hub();
  if (h.closed) throw new Error("live events are closed: the process is shutting down");
  await startListening();
  h.unlisten ??= onNotification(CHANNEL, (payload) => {
    const event = JSON.parse(payload) as GameEvent;
    for (const subscriber of hub().subscribers) subscriber.listener(event);
  });
  const subscriber = { listener, onClose };
  h.subscribers.add(subscriber);
  return () => h.subscribers.delete(subscriber);
}

/** False once the process has begun to shut down: no new stream may start. */
export function eventsOpen(): boolean {
  return !hub().closed;
}

/**
 * Ends every open stream and the listening connection, and refuses new streams (at
 * shutdown: a stream never finishes by itself, so the connections could not drain).
 */
export async function closeEvents(): Promise<void> {
  const h = hub();
  h.closed = true;
  for (const subscriber of [...h.subscribers]) subscriber.onClose();
  h.subscribers.clear();
  h.unlisten?.();
  h.unlisten = undefined;
  await stopListening();
}

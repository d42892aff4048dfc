import { remember } from "@epic-web/remember";
import type { Tx } from "~/models/db.server";
import type { ToldDraw, ToldRound } from "~/shared/live-reload";
import { isListening, onNotification, onStatus, type Channel, startListening, stopListening } from "./listener.server";

/**
 * Live game events (pot changes, new rounds, draws) through the announcements every
 * instance reads (app/infra/announcements.server.ts), so that every instance hears what any
 * instance did. Events are published inside the transaction that caused them: they are
 * heard after its commit, and never for a rollback.
 */
export const CHANNEL = "raffle_events" satisfies Channel;

export type GameEvent =
  | { type: "pot"; raffleId: string; kind: string; currentPot: string; participantCount: number; ticketCount: number }
  /** A new round, with what its card shows (pages add it at its start: ADR 094). */
  | ({ type: "round" } & ToldRound)
  /** A change to an open raffle (closed early, tickets taken back): pages showing it read it again. */
  | { type: "round"; raffleId: string; kind: string; tier: string; ticketsTakenBack?: true }
  /** A draw, with what its card shows (pages show it without reading theirs again: ADR 095). */
  | ({ type: "drawn" } & ToldDraw)
  /** News for these players (an outcome, a withdrawal's new state): only their own streams hear it (api.events). */
  | { type: "notice"; userIds: string[] };

/** Players per notice event: an id takes 39 bytes in JSON, and every instance reads every event (kept under 8 kB). */
const NOTICE_IDS_PER_EVENT = 150;

/** The notice events that tell these players' open pages to look for news. */
export function noticeEvents(userIds: string[]): GameEvent[] {
  const unique = [...new Set(userIds)];
  const events: GameEvent[] = [];
  for (let i = 0; i < unique.length; i += NOTICE_IDS_PER_EVENT) events.push({ type: "notice", userIds: unique.slice(i, i + NOTICE_IDS_PER_EVENT) });
  return events;
}

export async function publish(tx: Tx, event: GameEvent): Promise<void> {
  await tx.$executeRaw`SELECT announce(${CHANNEL}, ${JSON.stringify(event)})`;
}

type Listener = (event: GameEvent) => void;
type Subscriber = { listener: Listener; onClose: () => void };

/** Streams one session may hold at once (a few tabs); more are refused. */
export const STREAMS_PER_SESSION = 4;
/** Streams one account may hold at once, across its sessions: signing in again opens no more. */
export const STREAMS_PER_ACCOUNT = 8;
/** The share of the process's streams one address may hold (never fewer than an account's). */
const ADDRESS_SHARE = 0.05;

/** Streams one address may hold when the process holds at most `maxStreams`. */
export function streamsPerAddress(maxStreams: number): number {
  return Math.max(STREAMS_PER_ACCOUNT, Math.ceil(maxStreams * ADDRESS_SHARE));
}

type Scope = "session" | "account" | "address" | "process";

const REFUSALS: Record<Scope, string> = {
  session: "Too many live update streams are open for this session. Close a tab and try again.",
  account: "Too many live update streams are open for this account. Close a tab or sign out elsewhere and try again.",
  address: "Too many live update streams come from your network. The page keeps refreshing itself meanwhile.",
  process: "Live updates are busy right now. The page keeps refreshing itself meanwhile.",
};

/** A stream refused because its session, account, address or the process already holds its share. */
export class TooManyStreams extends Error {
  name = "TooManyStreams";
  constructor(readonly scope: Scope) {
    super(REFUSALS[scope]);
  }
}

/** Who holds a stream: each is counted against its own cap. */
export type StreamHolder = { session?: string; account?: string; address?: string; maxStreams?: number };

/**
 * Pot changes heard within this long go out together, the latest of each raffle only: every
 * entry moves a pot and every open stream hears every pot, so a crowd's entries cost streams ×
 * entries sends (issue 36). Other events go out at once, after the pots held back.
 */
export const POT_FLUSH_MS = 250;

/**
 * A stream opened after its page's data was read is sent again what it missed (ADR 104): the
 * events heard within this long are kept. A page whose stream takes longer reads its data again.
 */
export const REPLAY_MS = 30_000;
/** Events heard this long before a page's read are sent again too: instances' clocks differ a little. */
export const REPLAY_MARGIN_MS = 2_000;
/** At most this many events other than pots are kept (pots: the latest of each raffle). */
const REPLAY_KEPT = 2_000;

type Heard = { at: number; event: GameEvent };

type Hub = {
  subscribers: Set<Subscriber>;
  held: Map<string, number>;
  unlisten?: () => void;
  closed?: boolean;
  /** Pot events held back until the next flush, by raffle. */
  pots: Map<string, GameEvent>;
  flushTimer?: ReturnType<typeof setTimeout>;
  /** Events sent out lately (pots apart), oldest first, and each raffle's latest pot, oldest first. */
  recent: Heard[];
  recentPots: Map<string, Heard>;
  /** Every event heard since this time is in `recent` and `recentPots`; unset while not listening. */
  recentSince?: number;
};

/** One hub per process, shared by the copies of this module in server.ts and the Remix build. */
function hub(): Hub {
  return remember("raffle:events", (): Hub => ({ subscribers: new Set(), held: new Map(), pots: new Map(), recent: [], recentPots: new Map() }));
}

function dispatch(h: Hub, event: GameEvent) {
  keep(h, event, Date.now());
  for (const each of h.subscribers) each.listener(event);
}

/** Keeps `event` for streams that open late, and lets go of what is older than REPLAY_MS. */
function keep(h: Hub, event: GameEvent, now: number) {
  if (h.recentSince === undefined) return;
  if (event.type === "pot") {
    h.recentPots.delete(event.raffleId);
    h.recentPots.set(event.raffleId, { at: now, event });
  } else h.recent.push({ at: now, event });
  let cut = 0;
  while (cut < h.recent.length && (h.recent[cut]!.at < now - REPLAY_MS || h.recent.length - cut > REPLAY_KEPT)) cut++;
  if (cut > 0) h.recentSince = Math.max(h.recentSince, h.recent[cut - 1]!.at + 1);
  h.recent.splice(0, cut);
  for (const [raffleId, pot] of h.recentPots) {
    if (pot.at >= now - REPLAY_MS) break;
    h.recentPots.delete(raffleId);
    h.recentSince = Math.max(h.recentSince, pot.at + 1);
  }
}

/** Starts or stops keeping events as the listening connection comes up or goes down: a gap cannot be vouched for. */
function keepFrom(h: Hub, up: boolean) {
  h.recent = [];
  h.recentPots.clear();
  h.recentSince = up ? Date.now() : undefined;
}

/** Hears this channel's events from now on (once per process): the server starts it with the read model, so that the first streams can catch up. */
export function hearEvents(): void {
  const h = hub();
  if (h.unlisten || h.closed) return;
  const offEvents = onNotification(CHANNEL, (payload) => heard(hub(), JSON.parse(payload) as GameEvent));
  const offStatus = onStatus((up) => keepFrom(hub(), up));
  if (isListening()) keepFrom(h, true);
  h.unlisten = () => {
    offEvents();
    offStatus();
  };
}

/**
 * The events heard since `since` (this server's clock, less REPLAY_MARGIN_MS) that a stream
 * opened now missed, each raffle's pot once; undefined when some may not have been kept (too
 * long ago, or the listening connection was down meanwhile): the page must read its data again.
 */
export function eventsSince(since: number): GameEvent[] | undefined {
  const h = hub();
  const from = since - REPLAY_MARGIN_MS;
  if (h.recentSince === undefined || from < h.recentSince) return undefined;
  const pots = [...h.recentPots.values()].filter((p) => p.at >= from).map((p) => p.event);
  return [...pots, ...h.recent.filter((e) => e.at >= from).map((e) => e.event)];
}

function flushPots(h: Hub) {
  clearTimeout(h.flushTimer);
  h.flushTimer = undefined;
  const pots = [...h.pots.values()];
  h.pots.clear();
  for (const pot of pots) dispatch(h, pot);
}

function heard(h: Hub, event: GameEvent) {
  if (event.type === "pot") {
    h.pots.set(event.raffleId, event);
    h.flushTimer ??= setTimeout(() => flushPots(h), POT_FLUSH_MS);
    return;
  }
  flushPots(h);
  dispatch(h, event);
}

/**
 * Calls `listener` for every event from now on, and `onClose` when the process shuts
 * down; returns the unsubscribe function. Rejects when the database cannot be reached,
 * and with TooManyStreams when the session, the account or the address already holds its
 * share or the process `maxStreams`: the places are taken before anything is awaited, so
 * streams opened at once cannot pass the caps together.
 */
export async function subscribe(
  listener: Listener,
  onClose: () => void = () => {},
  { session, account, address, maxStreams = Infinity }: StreamHolder = {},
): Promise<() => void> {
  const h = hub();
  if (h.closed) throw new Error("live events are closed: the process is shutting down");
  if (h.subscribers.size >= maxStreams) throw new TooManyStreams("process");
  const keys: [Scope, string | undefined, number][] = [
    ["session", session, STREAMS_PER_SESSION],
    ["account", account, STREAMS_PER_ACCOUNT],
    ["address", address, streamsPerAddress(maxStreams)],
  ];
  const counted = keys.filter((k): k is [Scope, string, number] => k[1] !== undefined).map(([scope, id, cap]) => [scope, `${scope}:${id}`, cap] as const);
  for (const [scope, key, cap] of counted) if ((h.held.get(key) ?? 0) >= cap) throw new TooManyStreams(scope);
  const subscriber = { listener, onClose };
  h.subscribers.add(subscriber);
  for (const [, key] of counted) h.held.set(key, (h.held.get(key) ?? 0) + 1);
  let subscribed = true;
  const unsubscribe = () => {
    if (!subscribed) return;
    subscribed = false;
    h.subscribers.delete(subscriber);
    for (const [, key] of counted) {
      const left = (h.held.get(key) ?? 1) - 1;
      if (left > 0) h.held.set(key, left);
      else h.held.delete(key);
    }
  };
  try {
    await startListening();
  } catch (error) {
    unsubscribe();
    throw error;
  }
  hearEvents();
  return unsubscribe;
}

/** Live event streams this process serves now (for /metrics). */
export function openStreamCount(): number {
  return hub().subscribers.size;
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
  clearTimeout(h.flushTimer);
  h.flushTimer = undefined;
  h.pots.clear();
  keepFrom(h, false);
  for (const subscriber of [...h.subscribers]) subscriber.onClose();
  h.subscribers.clear();
  h.held.clear();
  h.unlisten?.();
  h.unlisten = undefined;
  await stopListening();
}

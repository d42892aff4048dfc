import { cachified } from "@epic-web/cachified";
import { remember } from "@epic-web/remember";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import { parseDollars } from "~/shared/money";
import type { RaffleKind } from "~/generated/prisma/client";
import type { SessionRow } from "~/models/accounts/session.server";
import { isListening, onNotification, onStatus, startListening, wake } from "./listener.server";
import { forget, joinOrRead, newShelf, type Flight, type Shelf } from "./read-model-shelf.server";

/**
 * What signed-in reads need, kept in the process's memory between the changes that
 * PostgreSQL announces (docs/decisions/013-reads-from-memory.md): sessions with their
 * user, the open raffles of each kind, each player's tickets in them (forgotten by that
 * player's entries, "tickets:"), and the shared panels (stats, winners, leaderboard).
 *
 * - Triggers announce every change of those rows on the "read_model" channel at commit
 *   (prisma/sql/functions/read_model_*.sql, through announce: ADR 111); live game events count as
 *   raffle changes too, and are seen first, so a browser told of a draw reads the draw. An
 *   entry's pot event moves its raffle on the kept list instead (ADR 101).
 * - The shared panels are not read again at every raffle change, only at a draw (the
 *   "drawn" event), a player's new name ("user:", not "account:") or after PANEL_TTL_MS: every entry
 *   changes a raffle, and re-reading the day's and the week's figures for every page while
 *   entries flow was most of what a crowd of players cost PostgreSQL (issue 36). The heavy
 *   ones (the day's figures, the week's leaderboard) are not read again at a draw either:
 *   draws end every few seconds under a crowd, and every home page waited for them.
 * - This process's own writes are forgotten before their answer leaves (`afterWrite`), so a
 *   player always reads what they just did; another instance's writes are seen when their
 *   announcement is read, a few milliseconds after the commit and its wake-up (`wake`).
 * - Nothing is cached while the listening connection is down, and everything is dropped
 *   when it goes down (a read that takes seconds means a silent death): a notification
 *   lost with the connection cannot leave a stale entry. Sessions and raffles are read
 *   again after a minute all the same.
 * - Writes never use this: what an entry, a payment or a withdrawal checks, it reads in its
 *   own transaction.
 *
 * Off until `startReadModel` (the server starts it; tests that call services directly read
 * the database every time, unless they start it).
 */

/**
 * A cached session is read again after this long even without a notification, as raffles
 * are: every change of a session or its player is announced. A player's requests are shared
 * among the workers, so a shorter life had most pages read their session again (issue 36).
 */
const SESSION_TTL_MS = 60_000;
/** Beyond this many cached sessions, the least recently read are dropped. */
const MAX_SESSIONS = 50_000;
/** The shared panels hold this long at most: some of them move with the clock (today's winners, the last 24 hours' players). */
const PANEL_TTL_MS = 5_000;
/**
 * After that, for this long, a page gets the panel it had while one read refreshes it: the
 * day's figures take long to read under a crowd, and every home page waited for them (issue 36).
 */
const PANEL_STALE_MS = 60_000;
/** The raffle lists change only when announced; read again after this long all the same. */
const LIST_TTL_MS = 60_000;
/** The shared panels (a few keys each day). */
const MAX_PANELS = 1_000;

type Model = {
  enabled: boolean;
  /** Bumped by every change of a session or user heard or made: a read that started before a change is not stored after it. */
  version: number;
  /** Sessions by token hash (lru-cache: read again after SESSION_TTL_MS, at most MAX_SESSIONS). */
  sessions: LRUCache<string, SessionRow>;
  /** Each user's cached token hashes, kept by the session cache's `dispose`, so a user's change drops their sessions. */
  tokensOfUser: Map<string, Set<string>>;
  /** Sessions being read, with the version their read began in: askers meanwhile share it. */
  reading: Map<string, Flight>;
  /** Bumped by every write this process answers: a player's read in flight (`playerRead`) serves no asker after one. */
  writes: number;
  /** Players' reads on their way (`playerRead`), by key, with the count of writes when each began. */
  asking: Map<string, Flight>;
  /** Each player's tickets in the open raffles, by player: forgotten by their own entries (ADR 103). */
  tickets: LRUCache<string, Map<string, number>>;
  /** The newest read of each player's tickets on its way: forgetting the player drops it, and it is not kept. */
  ticketReads: Map<string, symbol>;
  /** The active raffles of each game: forgotten at a raffle's change, moved in place by its pot's. */
  lists: Record<RaffleKind, Shelf>;
  /** Bumped whenever the lists are forgotten: an entry's figures are not put on a list read since (`potMoved`). */
  listChanges: number;
  /** The panels: forgotten by draws and players' changes, not by every pot. */
  panels: Shelf;
  /** The heavy panels (kept through draws): forgotten only by players' changes. */
  heavy: Shelf;
  stop?: () => void;
};

function newSessions(tokensOfUser: Map<string, Set<string>>): LRUCache<string, SessionRow> {
  return new LRUCache<string, SessionRow>({
    max: MAX_SESSIONS,
    ttl: SESSION_TTL_MS,
    // However a session leaves (a change, its age, room for newer ones), it leaves its user's index.
    dispose: (session, tokenHash) => {
      const tokens = tokensOfUser.get(session.user.id);
      tokens?.delete(tokenHash);
      if (tokens?.size === 0) tokensOfUser.delete(session.user.id);
    },
  });
}

function model(): Model {
  return remember("raffle:read-model", (): Model => {
    const tokensOfUser = new Map<string, Set<string>>();
    return {
      enabled: false,
      version: 0,
      sessions: newSessions(tokensOfUser),
      tokensOfUser,
      reading: new Map(),
      writes: 0,
      asking: new Map(),
      tickets: new LRUCache({ max: MAX_SESSIONS, ttl: SESSION_TTL_MS }),
      ticketReads: new Map(),
      lists: { regular: newShelf(1), quick: newShelf(1) },
      listChanges: 0,
      panels: newShelf(MAX_PANELS),
      heavy: newShelf(MAX_PANELS),
    };
  });
}

function forgetEverything(m: Model) {
  m.version++;
  m.sessions.clear();
  m.tokensOfUser.clear();
  m.tickets.clear();
  m.ticketReads.clear();
  m.listChanges++;
  for (const shelf of [m.lists.regular, m.lists.quick, m.panels, m.heavy]) {
    shelf.entries.clear();
    forget(shelf);
  }
}

function forgetToken(m: Model, tokenHash: string) {
  m.version++;
  m.sessions.delete(tokenHash);
}

/** A player's tickets changed (their entry, a refund): read again, and a read on its way is not kept. */
function forgetTickets(m: Model, userId: string) {
  m.tickets.delete(userId);
  m.ticketReads.delete(userId);
}

/** A player's account changed (their news, winnings, VIP, limits): their sessions and tickets are read again, nothing shared. */
function forgetAccount(m: Model, userId: string) {
  m.version++;
  for (const tokenHash of [...(m.tokensOfUser.get(userId) ?? [])]) m.sessions.delete(tokenHash);
  m.tokensOfUser.delete(userId);
  forgetTickets(m, userId);
}

/** A player's name changed, or they were deleted: their sessions, and everything that shows names. */
function forgetUser(m: Model, userId: string) {
  forgetAccount(m, userId);
  // Winners and the leaderboard show players' names (the raffle lists show none).
  forget(m.panels);
  forget(m.heavy);
}

function forgetLists(m: Model) {
  m.listChanges++;
  forget(m.lists.regular);
  forget(m.lists.quick);
}

/** A raffle's figures after an entry: what a pot event tells (app/infra/events.server.ts) and an entry's answer. */
export type PotFigures = { kind: string; raffleId: string; pot: bigint; ticketCount: number; playerCount: number };

/** What a kept list holds of each raffle, at least: what a pot moves. */
type ListedRaffle = { id: string; pot: bigint; ticketCount: number; playerCount: number };

/**
 * Moves a raffle's figures on its game's kept list: the list stays, as a new entry, and a
 * read on its way (begun before the entry) is not kept. Figures older than the list's (fewer
 * tickets: an event heard after a later entry's answer) change nothing; tickets leave an open
 * raffle only by a refund, which the raffles trigger announces ('raffles').
 */
function movePot(m: Model, figures: PotFigures) {
  const { kind } = figures;
  if (kind !== "regular" && kind !== "quick") return forgetLists(m);
  const [shelf, key] = [m.lists[kind], listKey(kind)];
  const stored = shelf.entries.get(key);
  const kept = stored?.generation === shelf.generation ? stored.entry : undefined;
  forget(shelf);
  if (!kept) return;
  const list = kept.value as ListedRaffle[];
  const moved = list.map((r) =>
    r.id === figures.raffleId && figures.ticketCount > r.ticketCount
      ? { ...r, pot: figures.pot, ticketCount: figures.ticketCount, playerCount: figures.playerCount }
      : r,
  );
  shelf.view.set(key, { ...kept, value: moved });
}

/** A pot event (app/infra/events.server.ts) as figures; any other payload fails. */
const PotEvent = z
  .object({ type: z.literal("pot"), kind: z.string(), raffleId: z.string(), currentPot: z.string(), participantCount: z.number(), ticketCount: z.number() })
  .transform((e) => ({ kind: e.kind, raffleId: e.raffleId, pot: parseDollars(e.currentPot), ticketCount: e.ticketCount, playerCount: e.participantCount }));

/** A live game event: a pot moves its raffle on the kept list; any other changes the lists and the panels (the winners), the heavy ones aside. */
function heardGameEvent(m: Model, payload: string) {
  let event: unknown;
  try {
    event = JSON.parse(payload);
  } catch {
    // Not JSON: a change of everything the lists and panels show.
  }
  const pot = PotEvent.safeParse(event);
  if (pot.success && pot.data.pot !== undefined) return movePot(m, { ...pot.data, pot: pot.data.pot });
  forgetLists(m);
  if ((event as { type?: unknown } | undefined)?.type !== "pot") forget(m.panels);
}

/** Applies one "read_model" notification (exported for tests of the payloads). */
export function applyChange(payload: string): void {
  const m = model();
  if (payload === "raffles") forgetLists(m);
  else if (payload.startsWith("account:")) forgetAccount(m, payload.slice(8));
  else if (payload.startsWith("user:")) forgetUser(m, payload.slice(5));
  else if (payload.startsWith("session:")) forgetToken(m, payload.slice(8));
  else if (payload.startsWith("tickets:")) for (const userId of payload.slice(8).split(",")) forgetTickets(m, userId);
  else forgetEverything(m); // 'reset' (a table emptied), or anything this version does not know
}

/** Starts caching once the listening connection is up (and whenever it comes back). */
export async function startReadModel(): Promise<void> {
  const m = model();
  if (m.stop) return;
  const unsubscribe = [
    onNotification("read_model", applyChange),
    onNotification("raffle_events", (payload) => heardGameEvent(m, payload)),
    onStatus((up) => {
      forgetEverything(m);
      m.enabled = up;
    }),
  ];
  const stop = () => {
    for (const off of unsubscribe) off();
    forgetEverything(m);
    m.enabled = false;
    m.stop = undefined;
  };
  m.stop = stop;
  await startListening();
  // Unless stopped meanwhile (or already told by onStatus).
  if (m.stop === stop) m.enabled = isListening();
}

export function stopReadModel(): void {
  model().stop?.();
}

export function readModelEnabled(): boolean {
  return model().enabled;
}

/**
 * A write in this process has committed: what it may have changed is read again (its session,
 * and the raffle lists). An entry (`keepsSession`) changed neither: the entry queue moved its
 * pots on the lists (`potMoved`) before its answer.
 */
export function afterWrite(tokenHash: string | undefined, { keepsSession = false }: { keepsSession?: boolean } = {}): void {
  const m = model();
  m.writes++;
  if (keepsSession) return; // an entry: its batch woke the instances (entry-queue.server.ts)
  wake();
  if (tokenHash) forgetToken(m, tokenHash);
  forgetLists(m);
}

/** The count to pass to `potMoved` for entries sent now. */
export function listChangesNow(): number {
  return model().listChanges;
}

/**
 * Entries this process sent have committed, with these figures: the kept lists show them at
 * once, so the entrant's next page shows their pot (the pot's event comes a little later). When
 * a raffle's change was heard since the entries were sent (`since`), a list may have been read
 * before their commit: it is forgotten instead.
 */
export function potMoved(figures: PotFigures, since: number): void {
  const m = model();
  if (!m.enabled) return;
  if (m.listChanges !== since) return forgetLists(m);
  movePot(m, figures);
}

/** A player's sessions were ended or their account changed here: their sessions are read again. */
export function forgetPlayer(userId: string): void {
  const m = model();
  m.writes++;
  forgetUser(m, userId);
}

/**
 * What a page shows of its player (`load`: coins, last spin, tickets), or the same read already
 * on its way, unless this process answered a write since that one began: a page's loaders ask
 * at once (Remix gives each loader its own copy of the request), and share one read. Only the
 * tickets are kept, unless the player's entry or refund overtook the read (ADR 103).
 */
export function playerRead<T extends { tickets: Map<string, number> }>(userId: string, load: () => Promise<T>): Promise<T> {
  const m = model();
  if (!m.enabled) return load();
  return joinOrRead(m.asking, `player:${userId}`, m.writes, async () => {
    const read = Symbol(userId);
    m.ticketReads.set(userId, read);
    try {
      const state = await load();
      if (m.ticketReads.get(userId) === read) m.tickets.set(userId, state.tickets);
      return state;
    } finally {
      if (m.ticketReads.get(userId) === read) m.ticketReads.delete(userId);
    }
  });
}

/** The player's tickets in the open raffles, when kept (`playerRead`): a list needs nothing else of them. */
export function keptTickets(userId: string): Map<string, number> | undefined {
  const m = model();
  return m.enabled ? m.tickets.get(userId) : undefined;
}

/** These players' entries (or refunds) committed here: their tickets are read again, before any answer. */
export function ticketsChanged(userIds: Iterable<string>): void {
  const m = model();
  for (const userId of userIds) forgetTickets(m, userId);
}

/** The session for this token hash, from memory or else from `load` (stored when nothing changed meanwhile). */
export async function session(tokenHash: string, now: Date, load: () => Promise<SessionRow | undefined>): Promise<SessionRow | undefined> {
  const m = model();
  if (!m.enabled) return load();
  const cached = m.sessions.get(tokenHash);
  if (cached && cached.expiresAt > now) return cached;
  const version = m.version;
  // Remix hands each loader its own copy of the request: the root's and the page's ask at
  // once, and share one read unless a change was heard since it began.
  const loaded = await joinOrRead(m.reading, tokenHash, version, load);
  if (loaded) storeSession(tokenHash, loaded, version);
  return loaded;
}

/** Stores a session read (or updated) when nothing changed since `version` was taken. */
export function storeSession(tokenHash: string, session: SessionRow, version: number): void {
  const m = model();
  if (!m.enabled || m.version !== version) return;
  m.sessions.set(tokenHash, session);
  let tokens = m.tokensOfUser.get(session.user.id);
  if (!tokens) m.tokensOfUser.set(session.user.id, (tokens = new Set()));
  tokens.add(tokenHash);
}

/** The version to pass to storeSession for a read that starts now. */
export function currentVersion(): number {
  return model().version;
}

const listKey = (kind: RaffleKind) => `raffles:${kind}`;

/** Every active raffle of the kind (started or not): changes with a raffle's row, and its pot moves in place. */
export function activeRaffles<T extends ListedRaffle>(kind: RaffleKind, load: () => Promise<T[]>): Promise<T[]> {
  const m = model();
  if (!m.enabled) return load();
  return cachified({ key: listKey(kind), cache: m.lists[kind].view, ttl: LIST_TTL_MS, getFreshValue: load });
}

/**
 * A panel every player sees the same (winners, the cards drawn moments ago): read again at a
 * draw, or after PANEL_TTL_MS. A heavy one (the day's figures, the week's leaderboard) is
 * kept through draws: one draw moves them little, and the read is slow under a crowd.
 */
export function panel<T>(key: string, load: () => Promise<T>, { heavy = false }: { heavy?: boolean } = {}): Promise<T> {
  const m = model();
  if (!m.enabled) return load();
  return cachified({
    key: `panel:${key}`,
    cache: m[heavy ? "heavy" : "panels"].view,
    ttl: PANEL_TTL_MS,
    staleWhileRevalidate: PANEL_STALE_MS,
    getFreshValue: load,
  });
}

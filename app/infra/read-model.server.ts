import { cachified, type Cache, type CacheEntry } from "@epic-web/cachified";
import { remember } from "@epic-web/remember";
import { LRUCache } from "lru-cache";
import type { RaffleKind } from "~/generated/prisma/client";
import type { SessionRow } from "~/models/accounts/session.server";
import { isListening, onNotification, onStatus, startListening } from "./listener.server";

/**
 * What signed-in reads need, kept in the process's memory between the changes that
 * PostgreSQL announces (docs/decisions/013-reads-from-memory.md): sessions with their
 * user, the open raffles of each kind, each player's tickets in them, and the shared
 * panels (stats, winners, leaderboard).
 *
 * - Triggers announce every change of those rows on the "read_model" channel at commit
 *   (prisma/migrations/20261121190000_read_model_notifications); live game events count as
 *   raffle changes too, and are seen first, so a browser told of a draw reads the draw.
 * - The shared panels are not read again at every raffle change, only at a draw (the
 *   "drawn" event), a player's new name ("user:", not "account:") or after PANEL_TTL_MS: every entry
 *   changes a raffle, and re-reading the day's and the week's figures for every page while
 *   entries flow was most of what a crowd of players cost PostgreSQL (issue 36). The heavy
 *   ones (the day's figures, the week's leaderboard) are not read again at a draw either:
 *   draws end every few seconds under a crowd, and every home page waited for them.
 * - This process's own writes are forgotten before their answer leaves (`afterWrite`), so a
 *   player always reads what they just did; another instance's writes are seen when their
 *   notification arrives, a few milliseconds after the commit.
 * - Nothing is cached while the listening connection is down, and everything is dropped
 *   when it goes down (a heartbeat notices a silent death within seconds): a notification
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
/** Raffles and tickets change only when announced; read again after this long all the same. */
const GAME_TTL_MS = 60_000;
/** Raffles and players' tickets: beyond this many, the least recently read are dropped. */
const MAX_GAME_ENTRIES = 50_000;
/** The shared panels (a few keys each day). */
const MAX_PANELS = 1_000;

type GameEntry = { generation: number; entry: CacheEntry };

/**
 * Entries keyed by name, each stamped with the generation it was read in, and what cachified
 * reads through (one read at a time per key, a failed read not kept): a view of `entries` for
 * one generation, replaced by a new view when the shelf is forgotten. The new view does not
 * see the older generations' entries, and a read the change overtook finishes into its old
 * view, which stores nothing any more. The change itself costs a small object: a new LRUCache
 * allocates arrays for all its `max` entries, and pots change hundreds of times a second
 * under load (a new cache per change cost entries three quarters of their throughput).
 */
type Shelf = { entries: LRUCache<string, GameEntry>; generation: number; view: Cache };

type Model = {
  enabled: boolean;
  /** Bumped by every change of a session or user heard or made: a read that started before a change is not stored after it. */
  version: number;
  /** Sessions by token hash (lru-cache: read again after SESSION_TTL_MS, at most MAX_SESSIONS). */
  sessions: LRUCache<string, SessionRow>;
  /** Each user's cached token hashes, kept by the session cache's `dispose`, so a user's change drops their sessions. */
  tokensOfUser: Map<string, Set<string>>;
  /** Sessions being read, with the version their read began in: askers meanwhile share it. */
  reading: Map<string, { version: number; session: Promise<SessionRow | undefined> }>;
  /** Raffles and tickets: forgotten at any raffle change. */
  game: Shelf;
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

/** A view of the shelf's entries for its generation now: it stores nothing once the shelf is forgotten. */
function generationView(shelf: Pick<Shelf, "entries" | "generation">): Cache {
  const { entries, generation } = shelf;
  const current = () => shelf.generation === generation;
  return {
    get: (key) => {
      const stored = entries.get(key);
      return stored && stored.generation === generation ? stored.entry : undefined;
    },
    set: (key, entry) => {
      if (current()) entries.set(key, { generation, entry });
    },
    delete: (key) => {
      if (current()) entries.delete(key);
    },
  };
}

function newShelf(max: number): Shelf {
  const shelf = { entries: new LRUCache<string, GameEntry>({ max }), generation: 0 };
  return Object.assign(shelf, { view: generationView(shelf) });
}

function forget(shelf: Shelf) {
  shelf.generation++;
  shelf.view = generationView(shelf);
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
      game: newShelf(MAX_GAME_ENTRIES),
      panels: newShelf(MAX_PANELS),
      heavy: newShelf(MAX_PANELS),
    };
  });
}

function forgetEverything(m: Model) {
  m.version++;
  m.sessions.clear();
  m.tokensOfUser.clear();
  for (const shelf of [m.game, m.panels, m.heavy]) {
    shelf.entries.clear();
    forget(shelf);
  }
}

function forgetToken(m: Model, tokenHash: string) {
  m.version++;
  m.sessions.delete(tokenHash);
}

/** A player's account changed (their news, winnings, VIP, limits): their sessions are read again, nothing shared. */
function forgetAccount(m: Model, userId: string) {
  m.version++;
  for (const tokenHash of [...(m.tokensOfUser.get(userId) ?? [])]) m.sessions.delete(tokenHash);
  m.tokensOfUser.delete(userId);
}

/** A player's name changed, or they were deleted: their sessions, and everything that shows names. */
function forgetUser(m: Model, userId: string) {
  forgetAccount(m, userId);
  // Winners and the leaderboard show players' names.
  forget(m.game);
  forget(m.panels);
  forget(m.heavy);
}

/** A live game event: every one changes a raffle; a draw also changes the panels (the winners), the heavy ones aside. */
function heardGameEvent(m: Model, payload: string) {
  forget(m.game);
  let type: unknown;
  try {
    type = (JSON.parse(payload) as { type?: unknown }).type;
  } catch {
    type = undefined;
  }
  if (type !== "pot") forget(m.panels);
}

/** Applies one "read_model" notification (exported for tests of the payloads). */
export function applyChange(payload: string): void {
  const m = model();
  if (payload === "raffles") forget(m.game);
  else if (payload.startsWith("account:")) forgetAccount(m, payload.slice(8));
  else if (payload.startsWith("user:")) forgetUser(m, payload.slice(5));
  else if (payload.startsWith("session:")) forgetToken(m, payload.slice(8));
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

/** A write in this process has committed: what it may have changed is read again (its session, and the game). */
export function afterWrite(tokenHash: string | undefined): void {
  const m = model();
  if (tokenHash) forgetToken(m, tokenHash);
  forget(m.game);
}

/** A player's sessions were ended or their account changed here: their sessions are read again. */
export function forgetPlayer(userId: string): void {
  forgetUser(model(), userId);
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
  const pending = m.reading.get(tokenHash);
  if (pending?.version === version) return pending.session;
  const reading = load();
  m.reading.set(tokenHash, { version, session: reading });
  const done = () => {
    if (m.reading.get(tokenHash)?.session === reading) m.reading.delete(tokenHash);
  };
  reading.then(done, done);
  const loaded = await reading;
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

function game<T>(key: string, ttlMs: number, load: () => Promise<T>, which: "game" | "panels" | "heavy" = "game"): Promise<T> {
  const m = model();
  if (!m.enabled) return load();
  return cachified({ key, cache: m[which].view, ttl: ttlMs, staleWhileRevalidate: which === "game" ? 0 : PANEL_STALE_MS, getFreshValue: load });
}

/** Every active raffle of the kind (started or not): changes only with a raffle's row. */
export function activeRaffles<T>(kind: RaffleKind, load: () => Promise<T>): Promise<T> {
  return game(`raffles:${kind}`, GAME_TTL_MS, load);
}

/** A player's tickets in the active raffles of the kind: change only with a raffle's row. */
export function ticketsOf<T>(userId: string, kind: RaffleKind, load: () => Promise<T>): Promise<T> {
  return game(`tickets:${kind}:${userId}`, GAME_TTL_MS, load);
}

/**
 * A panel every player sees the same (winners, the cards drawn moments ago): read again at a
 * draw, or after PANEL_TTL_MS. A heavy one (the day's figures, the week's leaderboard) is
 * kept through draws: one draw moves them little, and the read is slow under a crowd.
 */
export function panel<T>(key: string, load: () => Promise<T>, { heavy = false }: { heavy?: boolean } = {}): Promise<T> {
  return game(`panel:${key}`, PANEL_TTL_MS, load, heavy ? "heavy" : "panels");
}

import type { Cache, CacheEntry } from "@epic-web/cachified";
import { LRUCache } from "lru-cache";

/** The read model's parts that know nothing of raffles or players (read-model.server.ts). */

type GameEntry = { generation: number; entry: CacheEntry };

/**
 * Entries keyed by name, each stamped with the generation it was read in, and what cachified
 * reads through (one read at a time per key, a failed read not kept): a view of `entries` for
 * one generation, replaced by a new view when the shelf is forgotten. A read the change
 * overtook finishes into its old view, which stores nothing any more. The change costs a
 * small object, not a new LRUCache (which allocates arrays for all its `max` entries).
 */
export type Shelf = { entries: LRUCache<string, GameEntry>; generation: number; view: Cache };

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

export function newShelf(max: number): Shelf {
  const shelf = { entries: new LRUCache<string, GameEntry>({ max }), generation: 0 };
  return Object.assign(shelf, { view: generationView(shelf) });
}

export function forget(shelf: Shelf) {
  shelf.generation++;
  shelf.view = generationView(shelf);
}

/** A read on its way, stamped with the count (a version, or writes) it began at. */
export type Flight = { stamp: number; value: Promise<unknown> };

/** The read on its way for this key if it began at `stamp`, else a new one, shared until it is back. */
export function joinOrRead<T>(flights: Map<string, Flight>, key: string, stamp: number, load: () => Promise<T>): Promise<T> {
  const pending = flights.get(key);
  if (pending?.stamp === stamp) return pending.value as Promise<T>;
  const value = load();
  flights.set(key, { stamp, value });
  const done = () => {
    if (flights.get(key)?.value === value) flights.delete(key);
  };
  value.then(done, done);
  return value;
}

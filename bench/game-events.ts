import { readAnnouncements } from "~/infra/announcements.server";

/** A live game event as the bench reads it: what it needs of each kind. */
export type HeardEvent = { type?: string; raffleId?: string; kind?: string };

/**
 * The bench's reference clock for live game events: a connection of its own reads them as an
 * instance does (ADR 111), as soon as they commit, and `heard` is called with each and when it
 * was read. The connection is free for other queries.
 */
export function hearGameEvents(databaseUrl: string, heard: (event: HeardEvent, payload: string, at: number) => void, failed: (error: unknown) => void) {
  return readAnnouncements(
    databaseUrl,
    ({ channel, payload }) => {
      if (channel === "raffle_events") heard(JSON.parse(payload) as HeardEvent, payload, Date.now());
    },
    failed,
  );
}

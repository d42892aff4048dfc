import pg from "pg";
import { AnnouncementReader } from "~/infra/announcements.server";

/** A live game event as the bench reads it: what it needs of each kind. */
export type HeardEvent = { type?: string; raffleId?: string; kind?: string };

/**
 * The bench's reference clock for live game events: a connection of its own reads them as an
 * instance does (app/infra/announcements.server.ts, ADR 111), as soon as they commit, and
 * `heard` is called with each and when it was read. The connection is free for other queries.
 */
export async function hearGameEvents(databaseUrl: string, heard: (event: HeardEvent, payload: string, at: number) => void, failed: (error: unknown) => void) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const reader = new AnnouncementReader(
    client,
    ({ channel, payload }) => {
      if (channel === "raffle_events") heard(JSON.parse(payload) as HeardEvent, payload, Date.now());
    },
    failed,
  );
  await reader.start();
  return {
    client,
    end: async () => {
      reader.stop();
      await client.end();
    },
  };
}

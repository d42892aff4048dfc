import pg from "pg";
import { expect, vi } from "vitest";
import { testDatabaseUrl } from "./database-setup";

/**
 * A connection of its own that listens on `channels`, as an instance does: what it hears,
 * in the order it was sent, and each channel's payloads.
 */
export async function listening(...channels: ("raffle_events" | "read_model")[]) {
  const heard: { channel: string; payload: string }[] = [];
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  client.on("notification", (message) => heard.push({ channel: message.channel, payload: message.payload ?? "" }));
  await client.connect();
  for (const channel of channels) await client.query(`LISTEN ${channel}`);
  return {
    client,
    heard,
    payloads: (channel: string) => heard.filter((h) => h.channel === channel).map((h) => h.payload),
    /** Waits until `channel` has carried `expected` (its payload's JSON). */
    hears: (channel: string, expected: unknown) =>
      vi.waitFor(() => expect(heard.filter((h) => h.channel === channel).map((h) => JSON.parse(h.payload) as unknown)).toContainEqual(expected)),
    end: () => client.end(),
  };
}

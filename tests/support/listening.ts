import { expect, vi } from "vitest";
import { readAnnouncements } from "~/infra/announcements.server";
import { testDatabaseUrl } from "./database-setup";

/**
 * A connection of its own that reads what is announced on `channels`, as an instance does
 * (app/infra/announcements.server.ts): what it hears, in the order it was written, and each
 * channel's payloads.
 */
export async function listening(...channels: ("raffle_events" | "read_model")[]) {
  const heard: { channel: string; payload: string }[] = [];
  const { client, end } = await readAnnouncements(
    testDatabaseUrl,
    (announcement) => {
      if ((channels as string[]).includes(announcement.channel)) heard.push(announcement);
    },
    (error) => {
      throw error;
    },
    { everyMs: 20, minGapMs: 0 },
  );
  return {
    client,
    heard,
    payloads: (channel: string) => heard.filter((h) => h.channel === channel).map((h) => h.payload),
    /** Waits until `channel` has carried `expected` (its payload's JSON). */
    hears: (channel: string, expected: unknown) =>
      vi.waitFor(() => expect(heard.filter((h) => h.channel === channel).map((h) => JSON.parse(h.payload) as unknown)).toContainEqual(expected)),
    end,
  };
}

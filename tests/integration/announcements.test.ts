import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AnnouncementReader, cursorNow, forgetBefore, readSince, WAKE_CHANNEL, type Announcement } from "~/infra/announcements.server";
import { db } from "~/models/db.server";
import { testDatabaseUrl } from "../support/database-setup";

/**
 * What transactions tell every instance is read after their commit from the announcements
 * table, by transaction id (docs/decisions/111-announcements-read-after-commit.md).
 */

const clients: pg.Client[] = [];
async function connection(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  clients.push(client);
  return client;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.end()));
});

const mark = () => `test:${randomBytes(6).toString("hex")}`;
const payloads = (announced: Announcement[]) => announced.filter((a) => a.channel === "test").map((a) => a.payload);

describe("reading the announcements", () => {
  it("reads a transaction that took its id first but committed last, once, and nothing of a rollback", async () => {
    const [reader, early, late, undone] = await Promise.all([connection(), connection(), connection(), connection()]);
    let cursor = await cursorNow(reader);
    const [first, second, never] = [mark(), mark(), mark()];
    await early.query("BEGIN");
    await early.query("SELECT announce('test', $1)", [first]); // the older transaction id
    await undone.query("BEGIN");
    await undone.query("SELECT announce('test', $1)", [never]);
    await late.query("BEGIN");
    await late.query("SELECT announce('test', $1)", [second]);
    await late.query("COMMIT");

    let read = await readSince(reader, cursor);
    expect(payloads(read.announced)).toEqual([second]);
    cursor = read.cursor;
    await early.query("COMMIT");
    await undone.query("ROLLBACK");
    read = await readSince(reader, cursor);
    expect(payloads(read.announced)).toEqual([first]);
    read = await readSince(reader, read.cursor);
    expect(payloads(read.announced)).toEqual([]);
  });

  it("reads a transaction's announcements in the order written, the same one once (as NOTIFY did)", async () => {
    const [reader, writer] = await Promise.all([connection(), connection()]);
    const cursor = await cursorNow(reader);
    const [a, b] = [mark(), mark()];
    await writer.query("BEGIN");
    for (const payload of [a, b, a, b]) await writer.query("SELECT announce('test', $1)", [payload]);
    await writer.query("COMMIT");
    await writer.query("SELECT announce('test', $1)", [a]); // another transaction: read again
    expect(payloads((await readSince(reader, cursor)).announced)).toEqual([a, b, a]);
  });

  it("hears every one of many transactions committing at once exactly once, while it reads without pause", async () => {
    const reader = await connection();
    const heard: string[] = [];
    const listener = new AnnouncementReader(
      reader,
      (a) => a.channel === "test" && heard.push(a.payload),
      (error) => heard.push(`failed: ${String(error)}`),
      {
        minGapMs: 0,
        everyMs: 5,
      },
    );
    await listener.start();
    const writers = await Promise.all(Array.from({ length: 12 }, () => connection()));
    const sent = await Promise.all(
      writers.map(async (writer) => {
        const mine: string[] = [];
        for (let i = 0; i < 15; i++) {
          const payload = mark();
          mine.push(payload);
          await writer.query("BEGIN");
          await writer.query("SELECT announce('test', $1)", [payload]);
          await writer.query("SELECT pg_sleep(random() * 0.004)"); // commits in another order than the ids
          await writer.query("COMMIT");
        }
        return mine;
      }),
    );
    const all = sent.flat();
    await vi.waitFor(() => expect(heard.length).toBeGreaterThanOrEqual(all.length));
    listener.stop();
    expect([...heard].sort()).toEqual([...all].sort());
  });

  it("reads at once when woken, without waiting for its next read", async () => {
    const [reader, writer] = await Promise.all([connection(), connection()]);
    const heard: string[] = [];
    const listener = new AnnouncementReader(
      reader,
      (a) => a.channel === "test" && heard.push(a.payload),
      () => {},
      { everyMs: 600_000 },
    );
    await listener.start();
    const payload = mark();
    await writer.query("SELECT announce('test', $1)", [payload]);
    expect(heard).toEqual([]);
    await writer.query(`NOTIFY ${WAKE_CHANNEL}`);
    await vi.waitFor(() => expect(heard).toEqual([payload]));
    listener.stop();
  });

  it("deletes only what transactions that ended before the horizon announced", async () => {
    const [cleaner, open] = await Promise.all([connection(), connection()]);
    const [old, kept] = [mark(), mark()];
    await db().$executeRaw`SELECT announce('test', ${old})`;
    await open.query("BEGIN");
    await open.query("SELECT announce('test', $1)", [kept]); // in progress at the horizon
    const horizon = (await cursorNow(cleaner)).xmin;
    await open.query("COMMIT");
    await forgetBefore(cleaner, horizon);
    const left = await db().$queryRaw<{ payload: string }[]>`SELECT payload FROM announcements WHERE payload IN (${old}, ${kept})`;
    expect(left.map((r) => r.payload)).toEqual([kept]);
  });
});

describe("what commits money", () => {
  it("sends no NOTIFY: its commits share disk flushes (only the wake-up, outside any transaction, notifies)", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const functions = readdirSync(path.join(root, "prisma/sql/functions")).map((file) => [
      file,
      readFileSync(path.join(root, "prisma/sql/functions", file), "utf8"),
    ]);
    expect(functions.filter(([, sql]) => /pg_notify|\bNOTIFY\b/i.test(sql!.replace(/--.*$/gm, ""))).map(([file]) => file)).toEqual([]);
    const sources = (dir: string): string[] =>
      readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? entry.name === "generated"
            ? []
            : sources(path.join(dir, entry.name))
          : /\.tsx?$/.test(entry.name)
            ? [path.join(dir, entry.name)]
            : [],
      );
    const notifying = [...sources("app"), ...sources("server")].filter((file) => /pg_notify|`NOTIFY /.test(readFileSync(path.join(root, file), "utf8")));
    expect(notifying).toEqual(["app/infra/listener.server.ts"]);
  });
});

import pg from "pg";

/**
 * Reading what transactions announce (prisma/sql/functions/announce.sql): the rows of the
 * announcements table committed since the last read, found by transaction id (ADR 111).
 *
 * A read's own snapshot says which transactions it sees: every id below its `xmax` but those
 * in progress. The next read takes the rows of ids at or above that `xmax`, or in progress
 * then: exactly the transactions committed between the two reads, whatever order their ids
 * were taken in. A transaction that writes announces nothing until it commits, and a
 * rollback never.
 */

/** The channel of the wake-ups: a NOTIFY outside any money's transaction, sent after a commit, says "read now". */
export const WAKE_CHANNEL = "announced";

export type Announcement = { channel: string; payload: string };

/** Where a reader stands: the snapshot of its last read. */
export type Cursor = { xmin: string; xmax: string; inProgress: string[] };

function cursorOf(snapshot: string): Cursor {
  const [xmin, xmax, inProgress] = snapshot.split(":");
  return { xmin: xmin!, xmax: xmax!, inProgress: inProgress ? inProgress.split(",") : [] };
}

/** A cursor from now on: what was committed before is not read. */
export async function cursorNow(client: pg.ClientBase): Promise<Cursor> {
  const { rows } = await client.query<{ snapshot: string }>("SELECT pg_current_snapshot()::text AS snapshot");
  return cursorOf(rows[0]!.snapshot);
}

/**
 * The announcements committed since `cursor`, in the order they were written, and the
 * cursor after them. A transaction's same announcement twice is read once, as NOTIFY did.
 */
export async function readSince(client: pg.ClientBase, cursor: Cursor): Promise<{ announced: Announcement[]; cursor: Cursor }> {
  // One statement, so the rows and pg_current_snapshot() come from the same snapshot.
  const { rows } = await client.query<{ snapshot: string; announced: [string, string, string][] }>(
    `SELECT pg_current_snapshot()::text AS snapshot,
            (SELECT coalesce(json_agg(json_build_array(a.xid::text, a.channel, a.payload) ORDER BY a.id), '[]')
             FROM announcements a WHERE a.xid >= $1::bigint OR a.xid = ANY($2::bigint[])) AS announced`,
    [cursor.xmax, cursor.inProgress],
  );
  const seen = new Set<string>();
  const announced: Announcement[] = [];
  for (const [xid, channel, payload] of rows[0]!.announced) {
    const key = JSON.stringify([xid, channel, payload]);
    if (seen.has(key)) continue;
    seen.add(key);
    announced.push({ channel, payload });
  }
  return { announced, cursor: cursorOf(rows[0]!.snapshot) };
}

/**
 * Deletes the announcements of transactions that ended before `horizon` (a cursor's xmin
 * taken a while ago: every reader has read them since). One instance at a time deletes.
 */
export async function forgetBefore(client: pg.ClientBase, horizon: string): Promise<void> {
  await client.query("DELETE FROM announcements WHERE xid < $1::bigint AND (SELECT pg_try_advisory_xact_lock(hashtext('announcements')))", [horizon]);
}

/**
 * Announcements are deleted once their transaction ended this long ago (`forgetBefore`); a
 * reader that has not read for STALE_AFTER_MS fails rather than read on past a gap.
 */
export const FORGET_AFTER_MS = 30_000;
export const STALE_AFTER_MS = 20_000;
/** Reads again this soon after a read at the earliest: wake-ups come with every commit under load. */
export const MIN_READ_GAP_MS = 10;
/** Reads this often without a wake-up: a writer that died between its commit and its wake-up, a change made by hand. */
export const READ_EVERY_MS = 250;

/**
 * Reads the announcements on `client` (connected, used by nothing else) as they are
 * committed: at each wake-up and every READ_EVERY_MS. `failed` hears a read that failed or
 * took longer than `timeoutMs`: the caller ends the connection.
 */
export class AnnouncementReader {
  private cursor?: Cursor;
  private reading = false;
  private again = false;
  private lastReadAt = 0;
  private timer?: ReturnType<typeof setInterval>;
  private stopped = false;

  constructor(
    private readonly client: pg.Client,
    private readonly heard: (announcement: Announcement) => void,
    private readonly failed: (error: unknown) => void,
    private readonly options: { timeoutMs?: number; minGapMs?: number; everyMs?: number } = {},
  ) {}

  /** Reads from now on. */
  async start(): Promise<void> {
    this.client.on("notification", (message) => {
      if (message.channel === WAKE_CHANNEL) this.read();
    });
    await this.client.query(`LISTEN ${WAKE_CHANNEL}`);
    this.cursor = await cursorNow(this.client);
    this.lastReadAt = Date.now();
    this.timer = setInterval(() => this.read(), this.options.everyMs ?? READ_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /** The xmin of the last read's snapshot: the announcements older than it have all been read. */
  get horizon(): string | undefined {
    return this.cursor?.xmin;
  }

  /** Reads now, or once more after the read on its way. */
  read(): void {
    if (this.stopped || !this.cursor) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    void this.readUntilCaughtUp();
  }

  private async readUntilCaughtUp(): Promise<void> {
    try {
      do {
        this.again = false;
        const wait = this.lastReadAt + (this.options.minGapMs ?? MIN_READ_GAP_MS) - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (this.stopped) return;
        await this.readOnce();
      } while (this.again && !this.stopped);
    } catch (error) {
      if (this.stopped) return; // the connection was ended on purpose
      this.stop();
      this.failed(error);
    } finally {
      this.reading = false;
    }
  }

  private async readOnce(): Promise<void> {
    if (Date.now() - this.lastReadAt > STALE_AFTER_MS) throw new Error("the announcements were not read for too long: some may be gone");
    const timeoutMs = this.options.timeoutMs ?? 5_000;
    let timeout: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timeout = setTimeout(() => reject(new Error(`reading the announcements took over ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const { announced, cursor } = await Promise.race([readSince(this.client, this.cursor!), late]);
      this.cursor = cursor;
      this.lastReadAt = Date.now();
      for (const announcement of announced) if (!this.stopped) this.heard(announcement);
    } finally {
      clearTimeout(timeout);
    }
  }
}

/**
 * A connection of its own that reads the announcements from now on as an instance does, for
 * observers outside the app (the bench's clocks, the tests): `heard` with each, in order.
 */
export async function readAnnouncements(
  connectionString: string,
  heard: (announcement: Announcement) => void,
  failed: (error: unknown) => void,
  options?: { minGapMs?: number; everyMs?: number },
): Promise<{ client: pg.Client; end: () => Promise<void> }> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  const reader = new AnnouncementReader(client, heard, failed, options);
  await reader.start();
  return {
    client,
    end: async () => {
      reader.stop();
      await client.end();
    },
  };
}

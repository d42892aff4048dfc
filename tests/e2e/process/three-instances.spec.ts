import { expect, test } from "@playwright/test";
import pg from "pg";
import { runningDatabaseUrl } from "../../support/database-dump";
import { killServer, newDataDir, removeDataDirs, signUpOn, startServer, stopServer, waitUntilReady, type ServerProcess } from "../../support/server-process";
import { scaled } from "../../support/timeouts";

test.describe.configure({ mode: "serial" });
test.afterAll(() => removeDataDirs());

type QuickView = { id: string; entryPrice: string; endTime: string };
type Player = { cookie: string; on: number; drawn: Set<string>; counts: Map<string, number> };

/**
 * Issue 36, item 6: three app instances on one PostgreSQL, each with its scheduler, under a
 * crowd of players spread over them, each player's live stream on its own instance. Every
 * quick round is drawn exactly once, the draw reaches players on every instance, and when
 * one instance is killed mid-traffic no entry it acknowledged is lost and the other two go on.
 */
test("three instances on one database: draws once, news on every instance, nothing lost when one is killed", async () => {
  test.setTimeout(scaled(300_000));
  const aDir = newDataDir();
  // One process each (the default would be a worker per core): three instances on two cores.
  const common = { WEB_CONCURRENCY: "1", DEMO_MODE: "true", DEMO_CROWD: "0" };
  const a = await startServer(aDir, common);
  await waitUntilReady(a, scaled(110_000));
  const databaseUrl = await runningDatabaseUrl(aDir);
  const others = await Promise.all([1, 2].map(() => startServer(newDataDir(), { ...common, DATABASE_URL: databaseUrl })));
  await Promise.all(others.map((server) => waitUntilReady(server, scaled(110_000))));
  const servers: ServerProcess[] = [a, ...others];
  const base = (i: number) => `http://localhost:${servers[i]!.port}`;
  const streams = new AbortController();
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const players: Player[] = [];
  try {
    // Nine players, three signed up and listening on each instance.
    for (let i = 0; i < 9; i++) {
      const on = i % 3;
      players.push({ cookie: await signUpOn(base(on), `crowd-${i}-${Date.now()}@example.com`), on, drawn: new Set(), counts: new Map() });
    }
    for (const player of players) void listen(player);

    // Round 1: everyone enters through their instance; the draw reaches all three.
    const first = await nextRound();
    const acknowledged = new Map<string, number>();
    const enter = async (player: Player, round: string, via = player.on) => {
      const response = await fetch(`${base(via)}/api/quick-raffles/${round}/enter`, {
        method: "POST",
        headers: { Cookie: player.cookie, Origin: base(via), Accept: "application/json", "Content-Length": "0" },
      }).catch(() => undefined);
      if (response?.status === 200) acknowledged.set(round, (acknowledged.get(round) ?? 0) + 1);
      await response?.arrayBuffer();
      return response?.status;
    };
    expect(await Promise.all(players.map((p) => enter(p, first.id)))).toEqual(Array(9).fill(200));
    await expect.poll(() => players.filter((p) => p.drawn.has(first.id)).length, { timeout: scaled(60_000) }).toBe(9);

    // Round 2: players keep entering through every instance while the third is killed.
    const second = await nextRound();
    let killed = false;
    const traffic = (async () => {
      for (let wave = 0; wave < 6; wave++) {
        await Promise.all(players.map((p, i) => enter(p, second.id, (p.on + wave + i) % 3)));
        if (wave === 2) {
          await killServer(servers[2]!);
          killed = true;
        }
      }
    })();
    await traffic;
    expect(killed).toBe(true);
    const survivors = players.filter((p) => p.on !== 2);
    await expect.poll(() => survivors.filter((p) => p.drawn.has(second.id)).length, { timeout: scaled(60_000) }).toBe(survivors.length);

    for (const round of [first.id, second.id]) {
      const { rows } = await db.query<{ tickets: number; prizes: number; status: string }>(
        `SELECT (SELECT count(*)::int FROM entries WHERE raffle_id = $1) AS tickets,
                (SELECT count(*)::int FROM ledger_transactions WHERE raffle_id = $1 AND kind = 'prize') AS prizes,
                status::text FROM raffles WHERE id = $1`,
        [round],
      );
      // Every acknowledged entry is in the database, and the round was drawn once.
      expect(rows[0]!.tickets).toBeGreaterThanOrEqual(acknowledged.get(round)!);
      expect(rows[0]!).toMatchObject({ prizes: 1, status: "completed" });
      // No stream heard a round's draw twice, whichever instance drew it.
      for (const player of players) expect(player.counts.get(round) ?? 0).toBeLessThanOrEqual(1);
    }
    const { rows: balance } = await db.query<{ sum: string }>("SELECT coalesce(sum(balance), 0)::text AS sum FROM ledger_accounts");
    expect(balance[0]!.sum).toBe("0");
  } finally {
    streams.abort();
    await db.end();
    for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) await stopServer(server);
  }

  /** The cheapest quick round that has more than 10 s to run, once the scheduler opens it. */
  async function nextRound(): Promise<QuickView> {
    let found: QuickView | undefined;
    await expect
      .poll(
        async () => {
          const list = (await (await fetch(`${base(0)}/api/quick-raffles`, { headers: { Cookie: players[0]!.cookie } })).json()) as QuickView[];
          found = list.filter((r) => Date.parse(r.endTime) - Date.now() > 10_000).sort((x, y) => Number(x.entryPrice) - Number(y.entryPrice))[0];
          return found !== undefined;
        },
        { timeout: scaled(60_000) },
      )
      .toBe(true);
    return found!;
  }

  async function listen(player: Player) {
    const response = await fetch(`${base(player.on)}/api/events`, {
      headers: { Cookie: player.cookie, Accept: "text/event-stream" },
      signal: streams.signal,
    }).catch(() => undefined);
    if (!response?.body) return;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffered = "";
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        buffered += decoder.decode(read.value, { stream: true });
        const messages = buffered.split("\n\n");
        buffered = messages.pop()!;
        for (const message of messages) {
          if (!message.includes("event: drawn")) continue;
          const event = JSON.parse(/^data: (.*)$/m.exec(message)![1]!) as { raffleId: string };
          player.drawn.add(event.raffleId);
          player.counts.set(event.raffleId, (player.counts.get(event.raffleId) ?? 0) + 1);
        }
      }
    } catch {
      // The stream ended: its instance was killed, or the test is over.
    }
  }
});

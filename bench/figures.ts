import path from "node:path";
import pg from "pg";
import { setTimeout as sleep } from "node:timers/promises";
import { runLoad, percentile, type LoadResult, type Request } from "./load";
import { CARD_BODY, endAllAt, openBenchRaffle, openRaffleOfEveryTier, rafflesWithTickets, type BenchRaffle, type Player } from "./fixtures";
import { hearGameEvents } from "./game-events";
import { residentBytes, root } from "./infra";
import { statementsFrom } from "./statements";
import { db } from "~/models/db.server";
import { assetWeight } from "../tests/support/page-weight";
export { HOME_JS_BUDGET_BYTES, PLAYER_PAGES } from "../tests/support/page-weight";

/** The five figures of issue #9. Each returns what the report prints. */

const enterHeaders = (port: number, player: Player) => ({
  Cookie: player.cookie,
  Origin: `http://127.0.0.1:${port}`,
  Accept: "application/json",
  "Content-Length": "0",
});

const enterPath = (raffle: { id: string; kind: string }) =>
  raffle.kind === "quick" ? `/api/quick-raffles/${raffle.id}/enter` : `/api/raffles/${raffle.id}/enter`;

/**
 * Which door an entry goes through: the documented JSON API, or the page action a player's
 * own raffle card posts (`/raffles/:id/enter`, `/quick-raffles/:id/enter`). The card is a
 * `useFetcher` form: with single fetch its POST goes to the path plus `.data`, form-encoded
 * with the hydrated card's `answer=card`, from the page it is on; an entry is answered with
 * its data (the toast, the player's tickets and coins, status 200) and a refusal with the
 * redirect back to the page (202), ADR 093.
 */
export type EntryDoor = "api" | "page";

function entryRequest(door: EntryDoor, port: number, player: Player, raffle: { id: string; kind: string }): Request {
  if (door === "api") return { method: "POST", path: enterPath(raffle), headers: enterHeaders(port, player) };
  return {
    method: "POST",
    path: `/${raffle.kind === "quick" ? "quick-raffles" : "raffles"}/${raffle.id}/enter.data`,
    headers: {
      Cookie: player.cookie,
      Origin: `http://127.0.0.1:${port}`,
      Referer: `http://127.0.0.1:${port}${raffle.kind === "quick" ? "/quick" : "/"}`,
      "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8",
    },
    body: CARD_BODY,
  };
}

type Load = LoadResult & { failures: string[]; expectedAll: number };

/** What each door answers an accepted entry with. */
const ACCEPTED: Record<EntryDoor, number> = { api: 200, page: 200 };

/** The tickets in these raffles: the page door's refusals are found by what did not land. */
export const ticketsIn = (raffleIds: string[]) => db().entry.count({ where: { raffleId: { in: raffleIds } } });

/** Every entry the page door answered as accepted must be a new ticket: counted. */
async function refusedAtPage(door: EntryDoor, raffleIds: string[], before: number, load: Load): Promise<Load> {
  if (door !== "page") return load;
  const refused = load.expectedAll - ((await ticketsIn(raffleIds)) - before);
  if (refused <= 0) return load;
  return { ...load, failed: load.failed + refused, failures: [...load.failures, `${refused} accepted answers without a ticket`] };
}

/**
 * One entry through each door before any load: a fixture the app refuses (a gate the bench's
 * players do not pass) stops the bench at once with the app's answer, not after an hour.
 */
export async function checkDoors(port: number, player: Player, raffle: BenchRaffle): Promise<void> {
  for (const door of ["page", "api"] as const) {
    const { method, path: target, headers, body } = entryRequest(door, port, player, raffle);
    const before = await ticketsIn([raffle.id]);
    // fetch sets the length itself.
    const { "Content-Length": _, ...sent } = headers ?? {};
    const response = await fetch(`http://127.0.0.1:${port}${target}`, { method, headers: sent, body, redirect: "manual" });
    const answer = await response.text();
    if (response.status !== ACCEPTED[door] || (await ticketsIn([raffle.id])) !== before + 1) {
      throw new Error(`the ${door} door refused a bench player's entry: ${response.status} ${answer.slice(0, 300)}`);
    }
  }
}

type EntryLoad = { port: number; players: Player[]; seconds: number; door: EntryDoor };

/** 1a: every player enters the same raffle (opened by `openEntryRaffles`), one ticket per request, as fast as answers come. */
export async function entriesHot({ port, players, seconds, door, raffle }: EntryLoad & { raffle: BenchRaffle }): Promise<Load> {
  const before = await ticketsIn([raffle.id]);
  const load = await runLoad({
    port,
    connections: players.length,
    seconds,
    expect: ACCEPTED[door],
    requestsFor: (connection) => [entryRequest(door, port, players[connection]!, raffle)],
  });
  return refusedAtPage(door, [raffle.id], before, load);
}

/** 1b: every player enters raffles of every tier (regular, quick, VIP-only), picked in turn. */
export async function entriesSpread({ port, players, seconds, door, raffles }: EntryLoad & { raffles: BenchRaffle[] }): Promise<Load> {
  const ids = raffles.map((r) => r.id);
  const before = await ticketsIn(ids);
  const load = await runLoad({
    port,
    connections: players.length,
    seconds,
    expect: ACCEPTED[door],
    // Each player goes through every raffle in turn, each starting at a different one.
    requestsFor: (connection) => raffles.map((_, n) => entryRequest(door, port, players[connection]!, raffles[(connection + n) % raffles.length]!)),
  });
  return refusedAtPage(door, ids, before, load);
}

/**
 * The raffles the entry figures use, opened once for every run and door, so that the pages
 * the reads figure loads afterwards show as many raffles whatever the number of runs.
 */
export async function openEntryRaffles(): Promise<{ hot: BenchRaffle; everyTier: BenchRaffle[] }> {
  return { hot: await openBenchRaffle({ kind: "regular", tier: "micro", entryPrice: 5 }, 1_000_000), everyTier: await openRaffleOfEveryTier(1_000_000) };
}

/**
 * 1, the reference: the same players, connections and order of raffles against the
 * reference server (bench/reference/entries.mjs): one raffle for the hot figure, one per
 * series for every tier.
 */
export function referenceEntries({ port, players, seconds, raffles }: { port: number; players: Player[]; seconds: number; raffles: string[] }): Promise<Load> {
  return runLoad({
    port,
    connections: players.length,
    seconds,
    requestsFor: (connection) =>
      raffles.map((_, n) => ({
        method: "POST",
        path: `/enter/${raffles[(connection + n) % raffles.length]!}`,
        headers: enterHeaders(port, players[connection]!),
      })),
  });
}

/** 2: a GET as a signed-in player (the baseline is the same loader against hello world). */
export function reads({
  port,
  path: target,
  players,
  seconds,
  connections,
}: {
  port: number;
  path: string;
  players: Player[];
  seconds: number;
  connections: number;
}) {
  return runLoad({
    port,
    connections,
    seconds,
    requestsFor: (connection) => [{ path: target, headers: { Cookie: players[connection % players.length]!.cookie, "Accept-Encoding": "gzip" } }],
  });
}

export type DrawResult = {
  raffles: number;
  drawn: number;
  p50: number;
  p99: number;
  max: number;
  quickRounds: number;
  lateQuickRounds: number;
  worstQuickStartMs: number;
};

/**
 * 3: `count` raffles of `tickets` tickets each end in the same second; the time from
 * their end to the winner being recorded is when the "drawn" event (sent at commit)
 * arrives. Quick rounds that open meanwhile must be open by their start.
 */
export async function draws({
  databaseUrl,
  players,
  count,
  tickets,
}: {
  databaseUrl: string;
  players: Player[];
  count: number;
  tickets: number;
}): Promise<DrawResult> {
  const ids = await rafflesWithTickets(count, tickets, players);
  const wanted = new Set(ids);
  const drawnAt = new Map<string, number>();
  const roundOpenedAt = new Map<string, number>();
  // The fixtures just wrote 20,000 tickets and their postings in bulk: vacuum and analyze
  // now (as pgbench does before its runs), rather than let autovacuum pick its own moment
  // inside the measurement.
  const vacuum = new pg.Client({ connectionString: databaseUrl });
  await vacuum.connect();
  await vacuum.query("VACUUM ANALYZE raffles, entries, ledger_transactions, ledger_postings, ledger_accounts").finally(() => vacuum.end());
  const statements = await statementsFrom(databaseUrl);
  const listener = await hearGameEvents(
    databaseUrl,
    (event, _payload, at) => {
      if (event.type === "drawn" && event.raffleId && wanted.has(event.raffleId)) drawnAt.set(event.raffleId, at);
      if (event.type === "round" && event.kind === "quick" && event.raffleId) roundOpenedAt.set(event.raffleId, at);
    },
    (error) => console.error("reading the announcements failed", error),
  );
  try {
    // End them all 2.3 s before a quick round starts: the scheduler opens that round 2 s
    // ahead, so it must open it while it is drawing the thousand.
    const boundary = (at: number) => Math.ceil(at / 30_000) * 30_000;
    let start = boundary(Date.now() + 4_000);
    const endsAt = new Date(start - 2_300);
    await endAllAt(ids, endsAt);
    const deadline = endsAt.getTime() + 60_000;
    while (drawnAt.size < ids.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    await statements?.write(`draws-${count}`);
    // Watch one more quick boundary after the draws, then judge every round seen.
    start = boundary(Date.now() + 1);
    while (Date.now() < start + 1_000) await new Promise((resolve) => setTimeout(resolve, 100));
    const latencies = ids.map((id) => (drawnAt.get(id) ?? Number.POSITIVE_INFINITY) - endsAt.getTime()).sort((a, b) => a - b);
    const rounds = await listener.client.query<{ id: string; starts_at: Date }>("SELECT id::text, starts_at FROM raffles WHERE id = ANY($1::uuid[])", [
      [...roundOpenedAt.keys()],
    ]);
    const lateness = rounds.rows.map((row) => roundOpenedAt.get(row.id)! - row.starts_at.getTime());
    return {
      raffles: ids.length,
      drawn: drawnAt.size,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies[latencies.length - 1]!,
      quickRounds: rounds.rows.length,
      lateQuickRounds: lateness.filter((ms) => ms > 0).length,
      worstQuickStartMs: Math.max(...lateness),
    };
  } finally {
    await listener.end();
  }
}

export type PageWeight = { page: string; js: number; css: number; files: number };

/**
 * 4: the JavaScript and CSS a page loads on first visit, gzip-compressed: every module
 * script, modulepreload and stylesheet the server-rendered HTML names, sized from the
 * production build's files.
 */
export async function pageWeight({ port, pages, player }: { port: number; pages: string[]; player: Player }): Promise<PageWeight[]> {
  const sizes = new Map<string, number>();
  const results: PageWeight[] = [];
  for (const page of pages) {
    const response = await fetch(`http://127.0.0.1:${port}${page}`, { headers: { Cookie: player.cookie }, redirect: "manual" });
    if (response.status !== 200) throw new Error(`${page} answered ${response.status}`);
    results.push({ page, ...assetWeight(await response.text(), path.join(root, "build"), sizes) });
  }
  return results;
}

export type MemoryResult = {
  minutes: number;
  samples: { minute: number; mb: number }[];
  startMb: number;
  endMb: number;
  growthPercent: number;
  slopeMbPerMinute: number;
  requests: number;
  failed: number;
  /** RSS after the load stopped and the server idled IDLE_SECONDS: V8 gives back the heap it grew for the rate, a leak keeps it. */
  idleMb: number;
  /** V8's heap at the end of the load, every process summed (the app's /metrics), when a METRICS_TOKEN is given. */
  heap?: { usedMb: number; totalMb: number } | { unreadable: string };
};

/** How long the memory figure watches the server idle after its load. */
const IDLE_SECONDS = 30;

/** V8's heap, used and total, every process of the app summed, from its Prometheus metrics; or why it could not be read. */
async function heapOf(port: number, token: string | undefined): Promise<MemoryResult["heap"]> {
  if (!token) return undefined;
  const response = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { Authorization: `Bearer ${token}` } });
  const text = await response.text();
  if (!response.ok) return { unreadable: `/metrics answered ${response.status}: ${text.slice(0, 120)}` };
  const value = (name: string) => Number(new RegExp(`^\\w*${name} ([\\d.e+]+)$`, "m").exec(text)?.[1]);
  const [used, total] = [value("nodejs_heap_size_used_bytes"), value("nodejs_heap_size_total_bytes")];
  if (Number.isNaN(used) || Number.isNaN(total)) return { unreadable: "/metrics has no nodejs_heap_size_used_bytes or _total_bytes" };
  return { usedMb: used / 2 ** 20, totalMb: total / 2 ** 20 };
}

/** The memory figure's last sentence: the heap, or why it could not be read. */
export function heapSentence(heap: MemoryResult["heap"]): string {
  if (!heap) return ".";
  if ("unreadable" in heap) return `. V8's heap could not be read: ${heap.unreadable}.`;
  return `. V8's heap at the end of the load, every process summed: ${Math.round(heap.usedMb)} MB used of ${Math.round(heap.totalMb)} MB.`;
}

/**
 * 5: mixed load (entries, reads, home page) for `minutes`, sampling the server's
 * resident memory every 5 s. "Flat" compares the median of the last fifth with the
 * median of the second fifth (after warm-up), and fits a line through the second half.
 */
export async function memory({
  port,
  pid,
  players,
  minutes,
  metricsToken,
}: {
  port: number;
  pid: number;
  players: Player[];
  minutes: number;
  metricsToken?: string;
}): Promise<MemoryResult> {
  const raffles = await openRaffleOfEveryTier(1_000_000);
  const samples: { minute: number; mb: number }[] = [];
  const started = Date.now();
  const sample = () => samples.push({ minute: (Date.now() - started) / 60_000, mb: residentBytes(pid) / 2 ** 20 });
  sample();
  const timer = setInterval(sample, 5_000);
  const connections = 16;
  const load = await runLoad({
    port,
    connections,
    seconds: minutes * 60,
    // Memory is sampled from the start: warm-up is the first fifth, below.
    warmupSeconds: 0,
    // Each connection cycles entry, /api/raffles, / and /quick, entering each raffle in turn.
    requestsFor: (connection) => {
      const player = players[connection % players.length]!;
      return raffles.flatMap((_, n): Request[] => [
        { method: "POST", path: enterPath(raffles[(connection + n) % raffles.length]!), headers: enterHeaders(port, player) },
        { path: "/api/raffles", headers: { Cookie: player.cookie } },
        { path: "/", headers: { Cookie: player.cookie, "Accept-Encoding": "gzip" } },
        { path: "/quick", headers: { Cookie: player.cookie, "Accept-Encoding": "gzip" } },
      ]);
    },
  });
  clearInterval(timer);
  sample();
  const heap = await heapOf(port, metricsToken);
  // The idle server: V8's memory reducer shrinks a heap grown for a high allocation rate.
  const idle: number[] = [];
  for (let waited = 0; waited < IDLE_SECONDS; waited += 5) {
    await sleep(5_000);
    idle.push(residentBytes(pid) / 2 ** 20);
  }
  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    );
  const fifth = (i: number) => samples.filter((s) => s.minute >= (minutes * i) / 5 && s.minute < (minutes * (i + 1)) / 5 + 1e-9).map((s) => s.mb);
  const startMb = median(fifth(1));
  const endMb = median(fifth(4));
  const half = samples.filter((s) => s.minute >= minutes / 2);
  const mx = half.reduce((a, s) => a + s.minute, 0) / half.length;
  const my = half.reduce((a, s) => a + s.mb, 0) / half.length;
  const slope = half.reduce((a, s) => a + (s.minute - mx) * (s.mb - my), 0) / half.reduce((a, s) => a + (s.minute - mx) ** 2, 0);
  return {
    minutes,
    samples,
    startMb,
    endMb,
    growthPercent: ((endMb - startMb) / startMb) * 100,
    slopeMbPerMinute: slope,
    requests: load.requests,
    failed: load.failed,
    idleMb: Math.min(...idle),
    ...(heap ? { heap } : {}),
  };
}

import { randomInt } from "node:crypto";
import { setMaxListeners } from "node:events";
import { availableParallelism } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Agent, fetch, request } from "undici";
import { reloadDelay, reloadFor, reloadTimer, type PageGame, type ReloadTimer } from "~/shared/live-reload";
import { CARD_BODY, type Player } from "./fixtures";
import { hearGameEvents } from "./game-events";
import { cpuSeconds, postmasterPid, residentBytes } from "./infra";
import { percentile } from "./load";
import type { CrowdResult } from "./crowd-result";

/**
 * The crowd figure (issue 36): simulated signed-in players over HTTP, each doing what a
 * player does at a player's pace. Each opens the live event stream and the home page, then,
 * after a think of 2 to 8 s between steps, enters a regular or a quick raffle the way the
 * raffle card does (the page action, answered with its data: ADR 093), goes to /quick, home
 * or history (the page's data, as the router navigates: ADR 096), and spins the wheel once.
 * One in ten browses without JavaScript: documents, form posts, no stream. Draws and quick
 * rounds end throughout (the app's own scheduler, and a short raffle the driver opens every
 * 10 s). Its open page reloads its data when its stream's events say so, as the browser does
 * (shared/live-reload.ts): the player's news at once; on home or /quick, after a draw, the
 * panels at most once a minute (pots, new rounds and draws are told: ADRs 090, 094, 095).
 */
export type { CrowdResult, CrowdStep } from "./crowd-result";

/** How many players measure event delivery; the rest read their streams and drop the bytes. */
const EVENT_SAMPLERS = 50;
/** The crowd's steps a run may be limited to (`--crowd-step`), each with the roll that picks it below. */
const STEP_ROLL = { "regular-entry": 20, "quick-entry": 50, "quick-page": 70, home: 85, history: 95 } as const;
export const CROWD_STEPS = ["mixed", "none", ...(Object.keys(STEP_ROLL) as (keyof typeof STEP_ROLL)[])] as const;
export type CrowdStepChoice = (typeof CROWD_STEPS)[number];

const THINK_MS: [number, number] = [2_000, 8_000];
/** Players arrive over this long at the start, not all at once. */
const ARRIVAL_MS = 5_000;
/** Latencies count for steps begun this long after the last player's first page: the arrival's queue has drained. */
const SETTLE_MS = 5_000;

type Open = { regular: string[]; quick: string[] };

/** The page a player has open: its document, where its data is read again, and the game it shows. */
type Page = { document: string; data: string; game: PageGame };
const PAGES = {
  home: { document: "/", data: "/_root.data", game: "regular" },
  quick: { document: "/quick", data: "/quick.data", game: "quick" },
  history: { document: "/history", data: "/history.data", game: undefined },
} satisfies Record<string, Page>;

/**
 * One player in this many browses without JavaScript (ADR 096): every page is a document,
 * every entry a form post and its redirect, and no event stream. The others, hydrated,
 * navigate as the router does, for the page's data alone (single fetch: its loaders, no render).
 */
const WITHOUT_JS_EVERY = 10;

/**
 * A player's browser tab: its page, when its data was last read, and its live reload (as
 * use-live-updates.ts: the earliest asked for, none while it loads). `busy` counts its
 * requests in flight, a step and a reload may overlap.
 */
type Tab = { page: Page; busy: number; last: number; timer?: ReloadTimer };

/** One request of a step: what it sends, made from the step's previous answer when it needs it. */
/** One request of a step; `when` (given the previous answer) says whether the browser makes it. */
type Call = { expect: number[]; path: string; init: Sent | ((previous: Answer) => Sent); when?: (previous: Answer) => boolean };
/** What a step's request sends, and what of its answer the next request needs. */
type Sent = { method?: "GET" | "POST"; headers: Record<string, string>; body?: string };
type Answer = { status: number; setCookies: string[] };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const normal = (json: string) => JSON.stringify(JSON.parse(json));
const pageHeaders = (player: Player) => ({ Cookie: player.cookie, "Accept-Encoding": "gzip" });

/** Runs `step` with the tab counted busy. */
async function busyWith(tab: Tab, step: Promise<void>) {
  tab.busy += 1;
  try {
    await step;
  } finally {
    tab.busy -= 1;
  }
}

export async function crowd({
  port,
  appPid,
  postgresDir,
  databaseUrl,
  players,
  seconds,
  openShortRaffle,
  step = "mixed",
}: {
  port: number;
  appPid: number;
  postgresDir: string;
  databaseUrl: string;
  players: Player[];
  seconds: number;
  /** Opens a regular raffle ending in `endsInMs`, for draws to end throughout. */
  openShortRaffle: (endsInMs: number) => Promise<{ id: string; endsAt: number }>;
  /** Every player's every step this one (no spin), to price a step alone; "none" only holds the streams. */
  step?: CrowdStepChoice;
}): Promise<CrowdResult> {
  const base = `http://127.0.0.1:${port}`;
  const latencies = new Map<string, number[]>();
  const errorsBy = new Map<string, number>();
  const errorSamples: string[] = [];
  const fail = (step: string, what: string) => {
    errorsBy.set(step, (errorsBy.get(step) ?? 0) + 1);
    if (errorSamples.length < 5) errorSamples.push(`${step}: ${what}`);
  };
  const open: Open = { regular: [], quick: [] };
  const stop = new AbortController();
  // Every request in flight listens for the end of the run: a thousand players are not a leak.
  setMaxListeners(0, stop.signal);
  const startedAtMs = Date.now();
  const deadline = startedAtMs + seconds * 1000;
  /** Set once every player has arrived (their first page answered, their stream open). */
  let measuredFrom = Infinity;
  let arrivedAt = NaN;
  let arrivals = 0;
  const lag = monitorEventLoopDelay({ resolution: 10 });
  let lagFrom: ReturnType<typeof setTimeout> | undefined;
  const arrived = () => {
    if (++arrivals < players.length) return;
    arrivedAt = Date.now();
    measuredFrom = Math.max(startedAtMs + ARRIVAL_MS, arrivedAt) + SETTLE_MS;
    lagFrom = setTimeout(() => (lag.reset(), lag.enable()), measuredFrom - Date.now());
  };
  /**
   * Each player's own connections, as each browser has its own (ADR 091): one pool shared by
   * the crowd sent most requests down its first few connections, and so to one of the app's
   * workers. A browser sends its next request down the connection its last answer came on;
   * undici's pool opens a second one for a request sent as an answer ends, and a new connection
   * waits in the app's primary (Node's cluster hands them to the workers one at a time): one
   * connection for the requests, and the stream's own.
   */
  const browsers = new Map<Player, { requests: Agent; stream: Agent }>();
  const browserOf = (player: Player) => {
    let browser = browsers.get(player);
    if (!browser) browsers.set(player, (browser = { requests: new Agent({ connections: 1 }), stream: new Agent({ connections: 1 }) }));
    return browser;
  };

  // The reference clock for events and draws: the driver hears each event from PostgreSQL.
  const heardAt = new Map<string, number>();
  const drawnAt = new Map<string, number>();
  const eventDelays: number[] = [];
  const listener = await hearGameEvents(
    databaseUrl,
    (event, payload, at) => {
      heardAt.set(normal(payload), at);
      if (event.type === "drawn" && event.raffleId) drawnAt.set(event.raffleId, at);
    },
    (error) => stop.abort(error),
  );

  async function refreshOpen() {
    while (!stop.signal.aborted) {
      try {
        const cookie = players[0]!.cookie;
        const list = async (path: string) => ((await (await fetch(base + path, { headers: { Cookie: cookie } })).json()) as { id: string }[]).map((r) => r.id);
        [open.regular, open.quick] = [await list("/api/raffles"), await list("/api/quick-raffles")];
      } catch {
        // The next refresh tries again; players keep the last list.
      }
      await pause(3_000);
    }
  }

  /** Times `calls` in turn as one step; an answer it did not expect fails the step. */
  async function timed(step: string, player: Player, ...calls: Call[]) {
    const started = performance.now();
    // Latencies count for steps begun once every player has arrived: the arrival's pages warm
    // the caches, and at 1,000 players their queue took longer to drain than the wait below.
    const counted = Date.now() >= measuredFrom;
    try {
      let previous: Answer | undefined;
      for (const { expect, path, init, when } of calls) {
        if (when && !when(previous!)) continue;
        // undici's request, not fetch: the driver stands in for browsers on other machines but
        // runs on the app's two cores, and fetch's streams cost it twice the CPU (ADR 096).
        // It follows no redirect.
        const { statusCode, headers, body } = await request(base + path, {
          ...(typeof init === "function" ? init(previous!) : init),
          signal: stop.signal,
          dispatcher: browserOf(player).requests,
        });
        await body.dump({ limit: Infinity });
        if (!expect.includes(statusCode)) return fail(step, `${path} answered ${statusCode}`);
        const setCookie = headers["set-cookie"] ?? [];
        previous = { status: statusCode, setCookies: typeof setCookie === "string" ? [setCookie] : setCookie };
      }
      if (counted) {
        const list = latencies.get(step) ?? [];
        latencies.set(step, list);
        list.push(performance.now() - started);
      }
    } catch (error) {
      if (!stop.signal.aborted) fail(step, (error as Error).message);
    }
  }

  /** The tab's page data read again in `wait` ms, as the browser's revalidation does: the earliest asked for wins, and it waits while the tab loads. */
  function reloadSoon(player: Player, tab: Tab, wait: number) {
    tab.timer ??= reloadTimer(() => {
      if (stop.signal.aborted || Date.now() >= deadline) return;
      if (tab.busy > 0) return tab.timer!.ask(250);
      tab.last = Date.now();
      void busyWith(tab, timed("live reload", player, { expect: [200], path: tab.page.data, init: { headers: pageHeaders(player) } }));
    });
    tab.timer.ask(wait);
  }

  /** The player's event stream; `opened` once it answered (or failed). */
  async function stream(player: Player, tab: Tab, sampler: boolean, opened: () => void) {
    try {
      const answer = request(`${base}/api/events`, {
        headers: { Cookie: player.cookie, Accept: "text/event-stream" },
        signal: stop.signal,
        dispatcher: browserOf(player).stream,
      });
      answer.then(opened, opened);
      const { statusCode, body } = await answer;
      if (statusCode !== 200) return fail("event stream", `answered ${statusCode}`);
      body.setEncoding("utf8");
      let buffered = "";
      for await (const chunk of body as AsyncIterable<string>) {
        const at = Date.now();
        buffered += chunk;
        const messages = buffered.split("\n\n");
        buffered = messages.pop()!;
        for (const message of messages) {
          const type = /^event: (.*)$/m.exec(message)?.[1];
          const data = /^data: (.*)$/m.exec(message)?.[1];
          if (!type || !data) continue;
          // Every player hears every pot, and no pot reloads: only other events are parsed.
          const reload = reloadFor(type, type === "pot" || type === "notice" ? undefined : (JSON.parse(data) as { kind?: string }), tab.page.game);
          if (reload) reloadSoon(player, tab, reloadDelay(reload, Date.now() - tab.last, randomInt(1_000_000) / 1_000_000));
          if (!sampler || data === "{}") continue;
          const heard = heardAt.get(normal(data));
          if (heard !== undefined) eventDelays.push(at - heard);
        }
      }
    } catch (error) {
      if (!stop.signal.aborted) fail("event stream", (error as Error).message);
    }
  }

  async function play(player: Player, index: number) {
    await pause(randomInt(ARRIVAL_MS));
    const headers = pageHeaders(player);
    const hydrated = index % WITHOUT_JS_EVERY !== WITHOUT_JS_EVERY - 1;
    const tab: Tab = { page: PAGES.home, busy: 0, last: 0 };
    /** A step on `page`: the tab is busy until it is done, and then shows that page (read now when `read`). */
    const on = async (page: Page, step: Promise<void>, read = false) => {
      tab.page = page;
      await busyWith(tab, step);
      if (read) tab.last = Date.now();
    };
    /** The page after a redirect, with the cookies the answer set (the toast's). */
    const withToastCookie = (answer: Answer): Sent => ({
      headers: { ...headers, Cookie: [player.cookie, ...answer.setCookies.map((c) => c.split(";")[0])].join("; ") },
    });
    // An entry is what the hydrated card's fetcher does (ADR 093): the action, answered with its
    // data (200); only a refusal (202, a redirect) has the page's data loaded again (single
    // fetch: every loader, no render) with the toast's cookie.
    const enter = (path: string, page: string) => (hydrated ? enterHydrated(path, page) : enterWithForm(path, page));
    const enterHydrated = (path: string, page: string) =>
      timed(
        "entry",
        player,
        {
          expect: [200, 202],
          path: `${path}.data`,
          init: {
            method: "POST",
            headers: { Cookie: player.cookie, Origin: base, Referer: base + page, "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8" },
            body: CARD_BODY,
          },
        },
        {
          expect: [200],
          path: page === "/" ? "/_root.data" : `${page}.data`,
          init: withToastCookie,
          when: (answer) => answer.status === 202,
        },
      );
    // Without JavaScript: the form posts, and the browser follows the redirect to the page with the toast's cookie.
    const enterWithForm = (path: string, page: string) =>
      timed(
        "entry",
        player,
        {
          expect: [302, 303],
          path,
          init: {
            method: "POST",
            headers: { Cookie: player.cookie, Origin: base, Referer: base + page, "Content-Type": "application/x-www-form-urlencoded" },
            body: "",
          },
        },
        {
          expect: [200],
          path: page,
          init: withToastCookie,
        },
      );
    /** Another page: its document at arrival or without JavaScript; its data, hydrated. */
    const visit = (name: string, page: Page, arriving = false) =>
      on(page, timed(name, player, { expect: [200], path: hydrated && !arriving ? page.data : page.document, init: { headers } }), true);
    const streamOpened = hydrated ? new Promise<void>((resolve) => void stream(player, tab, index < EVENT_SAMPLERS, resolve)) : undefined;
    await visit("home", PAGES.home, true);
    await streamOpened;
    arrived();
    let spun = false;
    while (Date.now() < deadline && !stop.signal.aborted) {
      await pause(randomInt(...THINK_MS));
      if (Date.now() >= deadline) break;
      if (step === "none") continue;
      const roll = step === "mixed" ? randomInt(100) : STEP_ROLL[step];
      if (!spun && roll < 5) {
        spun = true;
        // 409: this player spun today already (players are reused from one crowd size to the next).
        await on(
          tab.page,
          timed("spin", player, {
            expect: [200, 409],
            path: "/api/daily-spin",
            init: { method: "POST", headers: { Cookie: player.cookie, Origin: base, "Content-Length": "0" } },
          }),
        );
      } else if (roll < 35 && open.regular.length) await on(PAGES.home, enter(`/raffles/${open.regular[randomInt(open.regular.length)]}/enter`, "/"));
      else if (roll < 60 && open.quick.length) await on(PAGES.quick, enter(`/quick-raffles/${open.quick[randomInt(open.quick.length)]}/enter`, "/quick"));
      else if (roll < 80) await visit("quick page", PAGES.quick);
      else if (roll < 90) await visit("home", PAGES.home);
      else await visit("history", PAGES.history);
    }
  }

  const shortRaffles = new Map<string, number>();
  async function drawsThroughout() {
    while (Date.now() < deadline - 20_000 && !stop.signal.aborted) {
      const { id, endsAt } = await openShortRaffle(15_000);
      shortRaffles.set(id, endsAt);
      await pause(10_000);
    }
  }

  const postgresPid = postmasterPid(postgresDir);
  const [appCpu, postgresCpu, driverCpu] = [cpuSeconds(appPid), cpuSeconds(postgresPid), process.cpuUsage()];
  const startedAt = performance.now();
  let rssPeak = 0;
  const rss = setInterval(() => (rssPeak = Math.max(rssPeak, residentBytes(appPid))), 5_000);
  const background = [refreshOpen(), drawsThroughout()];
  await pause(0);
  await Promise.all(players.map((player, i) => play(player, i)));
  const minutes = seconds / 60;
  const perThousandPlayerMinutes = (cpu: number) => cpu / ((players.length * minutes) / 1000);
  const [appUsed, postgresUsed] = [cpuSeconds(appPid) - appCpu, cpuSeconds(postgresPid) - postgresCpu];
  const driverUsage = process.cpuUsage(driverCpu);
  const driverUsed = (driverUsage.user + driverUsage.system) / 1e6;
  const machineShare = (appUsed + postgresUsed + driverUsed) / (availableParallelism() * ((performance.now() - startedAt) / 1000));
  clearInterval(rss);
  clearTimeout(lagFrom);
  lag.disable();
  stop.abort();
  await Promise.allSettled(background);
  // Their connections end with the run: the next size meets a new app on the same port.
  await Promise.allSettled([...browsers.values()].flatMap((browser) => [browser.requests.destroy(), browser.stream.destroy()]));
  await listener.end();

  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const drawDelays = sorted([...shortRaffles].filter(([id]) => drawnAt.has(id)).map(([id, endsAt]) => drawnAt.get(id)! - endsAt));
  const steps = [...new Set([...latencies.keys(), ...errorsBy.keys()])].map((step) => {
    const values = sorted(latencies.get(step) ?? []);
    return { step, count: values.length, p50: percentile(values, 50), p99: percentile(values, 99), errors: errorsBy.get(step) ?? 0 };
  });
  return {
    players: players.length,
    seconds,
    measuredSeconds: Math.max(0, (deadline - measuredFrom) / 1000),
    arrivalSeconds: (arrivedAt - startedAtMs) / 1000,
    steps,
    errors: [...errorsBy.values()].reduce((a, b) => a + b, 0),
    errorSamples,
    events: { sampled: eventDelays.length, p99: percentile(sorted(eventDelays), 99) },
    draws: { drawn: drawDelays.length, p99: percentile(drawDelays, 99) },
    appCpuPer1000PlayerMinutes: perThousandPlayerMinutes(appUsed),
    postgresCpuPer1000PlayerMinutes: perThousandPlayerMinutes(postgresUsed),
    driverCpuPer1000PlayerMinutes: perThousandPlayerMinutes(driverUsed),
    machineShare,
    appRssMb: rssPeak / 2 ** 20,
    driverLagP99: lag.count ? lag.percentile(99) / 1e6 : NaN,
  };
}

import { listRaffleSeries } from "~/models/raffles/raffle-schedule.server";
import { listOpenSlots, nextEndOfActiveRaffle } from "~/models/raffles/raffle.server";
import { beacon } from "~/infra/beacon.server";
import { wake } from "~/infra/listener.server";
import { getLogger } from "~/infra/logger.server";
import { drawDueRaffles, openRaffle } from "./raffles.server";

/**
 * Keeps the schedule running: every series has `concurrent` slots, and each slot runs
 * raffles back to back in windows aligned to the clock (a 30-second quick round starts
 * at :00 and :30). Every instance runs the same loop; the database makes each raffle
 * open once (unique schedule/slot/start) and be drawn once (SKIP LOCKED).
 */
type Series = Awaited<ReturnType<typeof listRaffleSeries>>[number];

/** The next round opens this long before its start, so it is ready on time. */
export const OPEN_AHEAD_MS = 2_000;

export function windowStart(series: Pick<Series, "durationSeconds" | "concurrent">, slot: number, at: number): number {
  const length = series.durationSeconds * 1000;
  const offset = Math.floor((slot * length) / series.concurrent);
  return Math.floor((at - offset) / length) * length + offset;
}

/** Opens every round that should be running at `now`, and the next one when it is near. */
export async function openScheduledRaffles(now: Date): Promise<number> {
  const series = (await listRaffleSeries()).filter((s) => s.enabled);
  const longest = Math.max(0, ...series.map((s) => s.durationSeconds * 1000));
  const open = new Set((await listOpenSlots(new Date(now.getTime() - longest))).map((r) => `${r.scheduleId}/${r.slot}/${r.startsAt.getTime()}`));
  let opened = 0;
  for (const s of series) {
    const length = s.durationSeconds * 1000;
    for (let slot = 0; slot < s.concurrent; slot++) {
      const current = windowStart(s, slot, now.getTime());
      const starts = now.getTime() + OPEN_AHEAD_MS >= current + length ? [current, current + length] : [current];
      for (const start of starts) {
        if (open.has(`${s.id}/${slot}/${start}`)) continue;
        const id = await openRaffle({
          scheduleId: s.id,
          slot,
          kind: s.kind,
          tier: s.tier,
          entryPrice: s.entryPrice,
          startsAt: new Date(start),
          endsAt: new Date(start + length),
          vipOnly: s.vipOnly,
          maxTicketsPerPlayer: s.maxTicketsPerPlayer,
        });
        if (id) opened += 1;
      }
    }
  }
  return opened;
}

/** One pass: open what is due to open, draw what is due to draw. */
export async function schedulerTick(now = new Date()) {
  const opened = await openScheduledRaffles(now);
  const drawn = await drawDueRaffles(now);
  return { opened, drawn };
}

export type Scheduler = { stop: () => Promise<void> };

/** The longest pause between two passes: a round opens at most this long after it is due to. */
export const SCHEDULER_INTERVAL_MS = 250;

/**
 * How long the draw loop sleeps: until the next raffle ends, so that it is drawn at
 * once, but no longer than `intervalMs` (an end moved earlier, or a raffle opened by
 * another instance, is seen by the next pass). A raffle that ended while the pass ran
 * is drawn at once; one that was already due when the pass began was left because
 * another instance holds it: look again after `intervalMs`.
 */
export function drawLoopDelay(nextEnd: Date | undefined, passStartedAt: number, now: number, intervalMs: number): number {
  if (!nextEnd || nextEnd.getTime() <= passStartedAt) return intervalMs;
  return Math.min(intervalMs, Math.max(0, nextEnd.getTime() - now));
}

type Loop = {
  name: string;
  run: (now: Date) => Promise<Record<string, number> | undefined>;
  delay: (passStartedAt: Date) => Promise<number>;
  /** Subscribes a wake-up: the loop runs again at once (after the running pass, if any). */
  wakeOn?: (wake: () => void) => () => void;
};

/**
 * Runs two loops until stopped: one opens rounds every `intervalMs`, one draws, waking
 * when the next raffle ends (docs/decisions/012-hot-paths.md). They are apart so that a
 * long run of draws (a thousand raffles ending together) never makes a round open late;
 * each loop never runs twice at once. The first passes run at once. The draw loop also
 * wakes when a beacon round its raffles wait for is fetched or given up.
 */
export function startScheduler({ intervalMs = SCHEDULER_INTERVAL_MS } = {}): Scheduler {
  const logger = getLogger().child({ component: "scheduler" });
  let stopped = false;
  const definitions: Loop[] = [
    {
      name: "open",
      run: async (now) => {
        const opened = await openScheduledRaffles(now);
        if (!opened) return undefined;
        wake(); // every instance reads the new rounds now (their pages add them at their start)
        return { opened };
      },
      delay: async () => intervalMs,
    },
    {
      name: "draw",
      run: (now) => drawDueRaffles(now).then((drawn) => (drawn.length ? { drawn: drawn.length } : undefined)),
      delay: async (passStartedAt) => drawLoopDelay(await nextEndOfActiveRaffle(), passStartedAt.getTime(), Date.now(), intervalMs),
      wakeOn: (wake) => beacon().onSettled(wake),
    },
  ];
  const unsubscribes: (() => void)[] = [];
  const loops = definitions.map(({ name, run, delay, wakeOn }) => {
    const loop = { timer: undefined as NodeJS.Timeout | undefined, running: Promise.resolve(), busy: false, again: false };
    const tick = () => {
      const now = new Date();
      loop.busy = true;
      loop.again = false;
      loop.running = run(now)
        .then((done) => {
          if (done) logger.info(done, "scheduler tick");
        })
        .then(() => delay(now))
        .catch((error: unknown) => {
          logger.error({ err: error }, `scheduler ${name} tick failed`);
          return intervalMs;
        })
        .then((ms) => {
          loop.busy = false;
          if (!stopped) loop.timer = setTimeout(tick, loop.again ? 0 : ms);
        });
    };
    if (wakeOn) {
      unsubscribes.push(
        wakeOn(() => {
          if (stopped) return;
          if (loop.busy) {
            loop.again = true;
            return;
          }
          clearTimeout(loop.timer);
          tick();
        }),
      );
    }
    tick();
    return loop;
  });
  return {
    stop: async () => {
      stopped = true;
      for (const unsubscribe of unsubscribes) unsubscribe();
      for (const loop of loops) clearTimeout(loop.timer);
      await Promise.all(loops.map((loop) => loop.running));
    },
  };
}

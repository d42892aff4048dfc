import { useFetchers, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import {
  isToldDraw,
  isToldRound,
  potsHeldAfter,
  RELOAD_GAP_MS,
  reloadDelay,
  reloadFor,
  reloadTimer,
  type LivePot,
  type Reload,
  type ToldDraw,
  type ToldRound,
} from "~/shared/live-reload";
import { useOptionalRootData } from "./use-root-data";
import type { LiveTold } from "./live-told";
import { DRAWN_EVENT } from "./outcome-signals";

/** A tab hidden this long lets its live stream go; it opens one again when shown. */
export const HIDDEN_STREAM_GRACE_MS = 60_000;

/** Without game updates, a page whose stream is down still looks for news this often. */
const NEWS_POLL_MS = 60_000;

/**
 * A game page: the raffles it shows, how often it polls when its stream is down, and when its
 * data was read (its loader's `readAt`, the server's clock): a stream opened later is first sent
 * what came after (ADR 104).
 */
export type LiveGame = { kind: "regular" | "quick"; pollMs: number; readAt?: number };

/** Pots, rounds and draws heard, at most this many raffles each: a page left open for hours hears thousands of rounds. */
const KEPT = 200;

/** `held` with `value` as its newest entry under `key`, the oldest dropped beyond KEPT. */
function kept<T>(held: ReadonlyMap<string, T>, key: string, value: T): ReadonlyMap<string, T> {
  const next = new Map(held);
  next.delete(key);
  next.set(key, value);
  for (const oldest of next.keys()) {
    if (next.size <= KEPT) break;
    next.delete(oldest);
  }
  return next;
}

/**
 * Keeps the page's data fresh: reloads it (at most once a second) when /api/events
 * reports news for this player (an outcome, a withdrawal's new state: the root loader
 * takes it and shows it). On a game page, the pots, new rounds and draws of its game are
 * returned for the page to show (ADRs 090, 094, 095); a draw reads the page's panels again
 * at most once a minute (shared/live-reload.ts). If the stream drops, the page
 * polls, as the spec's screens did. Every player page runs it (PlayerShell), so news
 * reaches whatever page is open.
 *
 * A tab hidden for `hiddenGraceMs` closes its stream and stops polling; shown again, it
 * reloads the page's data (whatever it was shown after: another tab may have played) and
 * opens a stream if it had closed it. A stream that dropped and came back reloads too:
 * events sent in the gap were missed. A game page's stream, opened after its data was read,
 * is first sent what came in between, or told to reload when that is not known (ADR 104).
 */
export function useLiveUpdates(liveGame?: LiveGame, hiddenGraceMs = HIDDEN_STREAM_GRACE_MS): LiveTold {
  const game = liveGame?.kind;
  const pollMs = liveGame?.pollMs ?? NEWS_POLL_MS;
  const [pots, setPots] = useState<ReadonlyMap<string, LivePot>>(() => new Map());
  const [rounds, setRounds] = useState<ReadonlyMap<string, ToldRound>>(() => new Map());
  const [draws, setDraws] = useState<ReadonlyMap<string, ToldDraw>>(() => new Map());
  const { revalidate, state } = useRevalidator();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  // A reload that starts cancels the one under way: while the page is loading or sending,
  // the next reload waits for it, so that a busy stream cannot starve every load.
  const busy = state !== "idle" || navigation.state !== "idle" || fetchers.some((f) => f.state !== "idle");
  const revalidateRef = useRef(revalidate);
  const busyRef = useRef(busy);
  useEffect(() => {
    revalidateRef.current = revalidate;
    busyRef.current = busy;
  }, [revalidate, busy]);
  // When the page's data was last read, by whatever read it: the root's data comes with every load.
  const lastRead = useRef(0);
  const root = useOptionalRootData();
  useEffect(() => {
    lastRead.current = Date.now();
  }, [root]);
  // The game's data read, kept without opening the stream again at each reload.
  const readAt = useRef(liveGame?.readAt);
  useEffect(() => {
    readAt.current = liveGame?.readAt;
  }, [liveGame?.readAt]);

  useEffect(() => {
    let poll: ReturnType<typeof setInterval> | undefined;
    const timer = reloadTimer(() => {
      if (busyRef.current) return timer.ask(250);
      lastRead.current = Date.now();
      if (document.visibilityState !== "hidden") revalidateRef.current();
    });
    const random = () => crypto.getRandomValues(new Uint32Array(1))[0]! / 2 ** 32;
    const ask = (reload: Reload) => timer.ask(reloadDelay(reload, Date.now() - lastRead.current, random()));
    const refresh = () => ask({ within: 0, gap: RELOAD_GAP_MS });
    const onEvent = (event: Event) => {
      const told = event.type === "notice" ? undefined : (JSON.parse((event as MessageEvent<string>).data) as { kind?: string });
      if (told && told.kind === game && event.type === "round" && isToldRound(told)) setRounds((held) => kept(held, told.raffleId, told));
      if (told && told.kind === game && event.type === "round") setPots((held) => potsHeldAfter(held, told));
      if (told && told.kind === game && event.type === "drawn" && isToldDraw(told)) setDraws((held) => kept(held, told.raffleId, told));
      const reload = reloadFor(event.type, told, game);
      if (reload) ask(reload);
    };
    const onPot = (event: Event) => {
      const pot = JSON.parse((event as MessageEvent<string>).data) as LivePot;
      if (pot.kind === game) setPots((held) => kept(held, pot.raffleId, pot));
    };
    const startPolling = () => {
      poll ??= setInterval(refresh, pollMs);
    };
    const stopPolling = () => {
      clearInterval(poll);
      poll = undefined;
    };
    // A stream the browser gave up on (a 429 or 503 refusal, say) is opened again after a
    // pause that doubles, from 30 s to 5 minutes, with jitter so that refused tabs do not
    // come back together; the page polls meanwhile.
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let pause = 30_000;
    // `catchUp`: first hear what came since the game's data was read (not when it is read again anyway).
    const connect = (catchUp: boolean) => {
      retry = undefined;
      let dropped = false;
      const since = catchUp ? readAt.current : undefined;
      const current = new EventSource(since === undefined ? "/api/events" : `/api/events?since=${since}`);
      source = current;
      current.addEventListener("notice", onEvent);
      if (game) {
        current.addEventListener("pot", onPot);
        for (const type of ["round", "drawn"]) current.addEventListener(type, onEvent);
        // Draws go on to whoever tells the player (OutcomeSignals: sound, notification).
        current.addEventListener("drawn", (event) => {
          window.dispatchEvent(new CustomEvent(DRAWN_EVENT, { detail: JSON.parse((event as MessageEvent<string>).data) }));
        });
      }
      current.addEventListener("open", () => {
        stopPolling();
        pause = 30_000;
        if (dropped) refresh();
        dropped = false;
      });
      current.addEventListener("error", () => {
        dropped = true;
        startPolling();
        if (current.readyState !== EventSource.CLOSED) return; // The browser reconnects by itself.
        retry = setTimeout(() => connect(true), pause / 2 + (pause / 2) * random());
        pause = Math.min(pause * 2, 300_000);
      });
    };
    const disconnect = () => {
      source?.close();
      source = undefined;
      clearTimeout(retry);
      retry = undefined;
      stopPolling();
    };
    const live = typeof EventSource !== "undefined";
    const start = (catchUp: boolean) => (live ? connect(catchUp) : startPolling());
    // Hidden for a while: nothing shown needs updating, so the stream's place is given back.
    let asleep = false;
    let hiding: ReturnType<typeof setTimeout> | undefined;
    const onVisibility = () => {
      clearTimeout(hiding);
      hiding = undefined;
      if (document.visibilityState === "hidden") {
        hiding = setTimeout(() => {
          asleep = true;
          disconnect();
        }, hiddenGraceMs);
      } else {
        // Another tab may have played meanwhile, and a pot's event reloads nothing.
        refresh();
        if (asleep) {
          asleep = false;
          start(false);
        }
      }
    };
    document.addEventListener("visibilitychange", onVisibility);
    start(true);
    if (document.visibilityState === "hidden") onVisibility();
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      disconnect();
      clearTimeout(hiding);
      timer.cancel();
    };
  }, [pollMs, game, hiddenGraceMs]);
  return useMemo(() => ({ pots, rounds, draws }), [pots, rounds, draws]);
}

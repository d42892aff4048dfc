import { useFetchers, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { DRAWN_EVENT } from "./outcome-signals";

/** A tab hidden this long lets its live stream go; it opens one again when shown. */
export const HIDDEN_STREAM_GRACE_MS = 60_000;

/** Without game updates, a page whose stream is down still looks for news this often. */
const NEWS_POLL_MS = 60_000;

/**
 * Keeps the page's data fresh: reloads it (at most once a second) when /api/events
 * reports news for this player (an outcome, a withdrawal's new state: the root loader
 * takes it and shows it) and, with `gamePollMs`, a pot change, a new round or a
 * draw; if the stream drops, falls back to polling, as the spec's screens did. Every player
 * page runs it (PlayerShell), so news reaches whatever page is open.
 *
 * A tab hidden for `hiddenGraceMs` closes its stream and stops polling; shown again, it
 * reloads the page's data and opens a stream. A stream that dropped and came back reloads
 * too: events sent in the gap were missed.
 */
export function useLiveUpdates(gamePollMs?: number, hiddenGraceMs = HIDDEN_STREAM_GRACE_MS) {
  const game = gamePollMs !== undefined;
  const pollMs = gamePollMs ?? NEWS_POLL_MS;
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

  useEffect(() => {
    let last = 0;
    let pending: ReturnType<typeof setTimeout> | undefined;
    let poll: ReturnType<typeof setInterval> | undefined;
    const schedule = (atLeast: number) => {
      const wait = Math.max(atLeast, last + 1000 - Date.now());
      if (pending) return;
      pending = setTimeout(() => {
        pending = undefined;
        if (busyRef.current) {
          schedule(250);
          return;
        }
        last = Date.now();
        if (document.visibilityState !== "hidden") revalidateRef.current();
      }, wait);
    };
    const refresh = () => schedule(0);
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
    const connect = () => {
      retry = undefined;
      let dropped = false;
      const current = new EventSource("/api/events");
      source = current;
      current.addEventListener("notice", refresh);
      if (game) {
        for (const type of ["pot", "round", "drawn"]) current.addEventListener(type, refresh);
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
        const jitter = crypto.getRandomValues(new Uint32Array(1))[0]! / 2 ** 32;
        retry = setTimeout(connect, pause / 2 + (pause / 2) * jitter);
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
    const start = () => (live ? connect() : startPolling());
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
      } else if (asleep) {
        asleep = false;
        refresh();
        start();
      }
    };
    document.addEventListener("visibilitychange", onVisibility);
    start();
    if (document.visibilityState === "hidden") onVisibility();
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      disconnect();
      clearTimeout(hiding);
      clearTimeout(pending);
    };
  }, [pollMs, game, hiddenGraceMs]);
}

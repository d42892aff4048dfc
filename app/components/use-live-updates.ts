import { useFetchers, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

/** Without game updates, a page whose stream is down still looks for news this often. */
const NEWS_POLL_MS = 60_000;

/**
 * Keeps the page's data fresh: reloads it (at most once a second) when /api/events
 * reports news for this player (an outcome, a withdrawal's new state: the root loader
 * takes it and shows it, ADR 028) and, with `game` (every `gamePollMs`), a pot change, a
 * new round or a draw; if the stream drops, falls back to polling, as the spec's screens did.
 * Every player page runs it (PlayerShell), so news reaches whatever page is open.
 */
export function useLiveUpdates(gamePollMs?: number) {
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
    // A stream the browser gave up on (a 429 or 503 refusal, say) is opened again after a
    // pause that doubles, from 30 s to 5 minutes, with jitter so that refused tabs do not
    // come back together; the page polls meanwhile (ADR 025).
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let pause = 30_000;
    const connect = () => {
      source = new EventSource("/api/events");
      source.addEventListener("notice", refresh);
      if (game) for (const type of ["pot", "round", "drawn"]) source.addEventListener(type, refresh);
      source.addEventListener("open", () => {
        clearInterval(poll);
        poll = undefined;
        pause = 30_000;
      });
      source.addEventListener("error", () => {
        startPolling();
        if (source?.readyState !== EventSource.CLOSED) return; // The browser reconnects by itself.
        const jitter = crypto.getRandomValues(new Uint32Array(1))[0]! / 2 ** 32;
        retry = setTimeout(connect, pause / 2 + (pause / 2) * jitter);
        pause = Math.min(pause * 2, 300_000);
      });
    };
    if (typeof EventSource === "undefined") startPolling();
    else connect();
    return () => {
      source?.close();
      clearTimeout(retry);
      clearInterval(poll);
      clearTimeout(pending);
    };
  }, [pollMs, game]);
}

import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { DRAWN_EVENT } from "./outcome-signals";

/** A tab hidden this long lets its live stream go; it opens one again when shown (ADR 025). */
export const HIDDEN_STREAM_GRACE_MS = 60_000;

/**
 * Keeps the page's data fresh: reloads it (at most once a second) when /api/events
 * reports a pot change, a new round or a draw; if the stream drops, falls back to
 * polling every `pollMs`, as the spec's screens did. A tab hidden for `hiddenGraceMs`
 * closes its stream and stops polling; shown again, it reloads the page's data and
 * opens a stream. A stream that dropped and came back reloads too: events sent in the
 * gap were missed.
 */
export function useLiveUpdates(pollMs: number, hiddenGraceMs = HIDDEN_STREAM_GRACE_MS) {
  const { revalidate } = useRevalidator();
  const revalidateRef = useRef(revalidate);
  useEffect(() => {
    revalidateRef.current = revalidate;
  }, [revalidate]);

  useEffect(() => {
    let last = 0;
    let pending: ReturnType<typeof setTimeout> | undefined;
    let poll: ReturnType<typeof setInterval> | undefined;
    const refresh = () => {
      const wait = Math.max(0, last + 1000 - Date.now());
      if (pending) return;
      pending = setTimeout(() => {
        pending = undefined;
        last = Date.now();
        if (document.visibilityState !== "hidden") revalidateRef.current();
      }, wait);
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
    // come back together; the page polls meanwhile (ADR 025).
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let pause = 30_000;
    const connect = () => {
      retry = undefined;
      let dropped = false;
      const current = new EventSource("/api/events");
      source = current;
      for (const type of ["pot", "round", "drawn"]) current.addEventListener(type, refresh);
      // Draws go on to whoever tells the player (OutcomeSignals: sound, notification).
      current.addEventListener("drawn", (event) => {
        window.dispatchEvent(new CustomEvent(DRAWN_EVENT, { detail: JSON.parse((event as MessageEvent<string>).data) }));
      });
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
  }, [pollMs, hiddenGraceMs]);
}

import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { DRAWN_EVENT } from "./outcome-signals";

/**
 * Keeps the page's data fresh: reloads it (at most once a second) when /api/events
 * reports a pot change, a new round or a draw; if the stream drops, falls back to
 * polling every `pollMs`, as the spec's screens did.
 */
export function useLiveUpdates(pollMs: number) {
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
    // A stream the browser gave up on (a 429 or 503 refusal, say) is opened again after a
    // pause that doubles, from 30 s to 5 minutes, with jitter so that refused tabs do not
    // come back together; the page polls meanwhile (ADR 025).
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let pause = 30_000;
    const connect = () => {
      source = new EventSource("/api/events");
      for (const type of ["pot", "round", "drawn"]) source.addEventListener(type, refresh);
      // Draws go on to whoever tells the player (OutcomeSignals: sound, notification).
      source.addEventListener("drawn", (event) => {
        window.dispatchEvent(new CustomEvent(DRAWN_EVENT, { detail: JSON.parse((event as MessageEvent<string>).data) }));
      });
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
  }, [pollMs]);
}

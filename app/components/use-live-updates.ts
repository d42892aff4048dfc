import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

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
    const source = typeof EventSource === "undefined" ? undefined : new EventSource("/api/events");
    const startPolling = () => {
      poll ??= setInterval(refresh, pollMs);
    };
    if (source) {
      for (const type of ["pot", "round", "drawn"]) source.addEventListener(type, refresh);
      source.addEventListener("open", () => {
        clearInterval(poll);
        poll = undefined;
      });
      source.addEventListener("error", startPolling);
    } else {
      startPolling();
    }
    return () => {
      source?.close();
      clearInterval(poll);
      clearTimeout(pending);
    };
  }, [pollMs]);
}

import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { PlayState } from "~/services/play-safety/reality-check.server";
import { formatDuration } from "~/shared/responsible-play-options";
import { useNow } from "./use-now";
import { utcMinute } from "~/shared/dates";
import { useOptionalRootData } from "./use-root-data";

/** Why play is stopped for the signed-in player (a break, an exclusion, or where they live), if it is: promotions stay hidden. */
export function usePaused() {
  return useOptionalRootData()?.play?.paused ?? null;
}

/** Under the top bar while play is stopped. */
export function PausedNotice() {
  const paused = usePaused();
  if (!paused) return null;
  return (
    <p
      role="status"
      className="border-b border-amber-500 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-50"
      data-testid="paused-notice"
    >
      {paused.kind === "jurisdiction" ? (
        <>
          Raffle Rush is no longer available where you live. Playing and buying are closed and we show you no offers; you can still see your balance and
          withdraw.
        </>
      ) : (
        <>
          {paused.kind === "self_exclusion" ? "You have excluded yourself" : "You are taking a break"} until {utcMinute(paused.until)}. Playing and buying are
          paused and we show you no offers; you can still see your balance and withdraw.
        </>
      )}
    </p>
  );
}

/** "1:05:09" or "5:09". */
function clock(ms: number) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const mmss = `${String(m).padStart(h ? 2 : 1, "0")}:${String(s).padStart(2, "0")}`;
  return h ? `${h}:${mmss}` : mmss;
}

const signed = (coins: number) => `${coins > 0 ? "+" : coins < 0 ? "−" : ""}${Math.abs(coins).toLocaleString("en-US")} coins`;

/**
 * The elapsed time of this stretch of play (always in the top bar), and the reality
 * check when it is due: rendered by the server when due at page load (works without
 * JavaScript: "Keep playing" is a form), and raised by a timer while the page is open.
 */
export function PlaySession({ play, serverNow }: { play: PlayState; serverNow: number }) {
  const now = useNow(serverNow);
  const [reality, setReality] = useState(play.reality);
  const keepPlaying = useFetcher();
  const fresh = useRef(false);
  // New data from the server (a page load or revalidation) replaces what the page held.
  const [served, setServed] = useState(play.reality);
  if (served?.dueAt !== play.reality?.dueAt || served?.netCoins !== play.reality?.netCoins) {
    setServed(play.reality);
    setReality(play.reality);
  }

  const due = reality !== null && now >= Date.parse(reality.dueAt);
  // When the timer brings the reminder, ask for the net result as it is now.
  useEffect(() => {
    if (!due || fresh.current || reality?.due) return;
    fresh.current = true;
    fetch("/api/reality-check", { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then((response) => (response.ok ? (response.json() as Promise<PlayState>) : null))
      .then((state) => state?.reality && setReality(state.reality))
      .catch(() => {});
  }, [due, reality?.due]);

  const elapsed = now - Date.parse(play.startedAt);
  return (
    <>
      <span className="tabular-nums text-ink-muted" data-testid="session-clock" title="Time playing this session">
        <span className="sr-only">Playing for </span>
        <span aria-hidden="true">Session </span>
        {clock(elapsed)}
      </span>
      {/* Hidden once "Keep playing" is sent: the page's data comes back with the next reminder. */}
      {due && reality && keepPlaying.state === "idle" ? (
        <div className="fixed inset-0 z-50 flex items-center justify-center bg-night/60 p-4">
          <section
            role="alertdialog"
            aria-modal="true"
            aria-labelledby="reality-check-title"
            aria-describedby="reality-check-body"
            className="flex w-full max-w-md flex-col gap-4 rounded-xl bg-surface p-6 text-ink shadow-xl"
            data-testid="reality-check"
          >
            <h2 id="reality-check-title" className="text-xl font-black">
              Reality check
            </h2>
            <div id="reality-check-body" className="flex flex-col gap-1">
              <p>
                You have been playing for <strong>{formatDuration(elapsed)}</strong>.
              </p>
              <p>
                Net result this session: <strong data-testid="reality-net">{signed(reality.netCoins)}</strong>.
              </p>
            </div>
            <div className="flex flex-wrap gap-3">
              <a href="/history" className="rounded-md border border-line-strong px-4 py-2 font-semibold">
                View history
              </a>
              <a href="/api/logout" className="rounded-md border border-line-strong px-4 py-2 font-semibold">
                Stop playing
              </a>
              {/* One answer with or without JavaScript: back to the page. */}
              <keepPlaying.Form
                method="post"
                action="/reality-check"
                preventScrollReset
                onSubmit={() => {
                  fresh.current = false;
                }}
              >
                {/* The reminder interrupts play on purpose: focus lands on it. */}
                {/* eslint-disable-next-line jsx-a11y/no-autofocus */}
                <button type="submit" autoFocus className="rounded-md bg-accent px-4 py-2 font-semibold text-on-accent">
                  Keep playing
                </button>
              </keepPlaying.Form>
            </div>
            <p className="text-sm">
              Change or turn off these reminders on the{" "}
              <a href="/responsible-play" className="underline">
                Responsible play
              </a>{" "}
              page.
            </p>
          </section>
        </div>
      ) : null}
    </>
  );
}

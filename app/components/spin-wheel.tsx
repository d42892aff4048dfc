import { useFetcher, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "./use-hydrated";
import { formatClock } from "~/shared/raffle-display";
import { utcMinute } from "~/shared/dates";

/** What the wheel shows; the server picks the real reward. */
export const WHEEL_PRIZES = [5, 10, 25, 50] as const;
/** The wheel spins this long before the request is sent (spec section 4). */
export const SPIN_REQUEST_DELAY_MS = 3000;

export type WheelState = "ready" | "spinning" | "processing" | "waiting";

export function wheelState({ canSpin, spinning, pending }: { canSpin: boolean; spinning: boolean; pending: boolean }): WheelState {
  if (pending) return "processing";
  if (spinning) return "spinning";
  return canSpin ? "ready" : "waiting";
}

export function wheelLabel(state: WheelState, secondsToNext: number): string {
  switch (state) {
    case "processing":
      return "PROCESSING...";
    case "spinning":
      return "SPINNING...";
    case "ready":
      return "SPIN";
    case "waiting":
      return secondsToNext <= 0 ? "Available now!" : `Next spin in ${formatClock(secondsToNext)}`;
  }
}

/**
 * The daily wheel. Without JavaScript the button posts the form; with it, the wheel
 * turns for 3 s before a fetcher sends the same form, and the page's data (status,
 * balance) and the toast come back with the action's redirect.
 */
export function SpinWheel({ canSpin, nextSpinTime, now }: { canSpin: boolean; nextSpinTime: string; now: number }) {
  const hydrated = useHydrated();
  const spin = useFetcher();
  // Busy until the page's data is loaded again after the spin (the fetcher follows the
  // action's redirect), so SPIN cannot come back before the status says it may.
  const pending = spin.state !== "idle";
  const [spinning, setSpinning] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const secondsToNext = Math.ceil((new Date(nextSpinTime).getTime() - now) / 1000);
  // The button follows the server's word (spec: enabled only when canSpin); the countdown
  // says "Available now!" once it has run out, and the status is asked for again then.
  const state = wheelState({ canSpin, spinning, pending });
  const due = secondsToNext <= 0;
  const revalidator = useRevalidator();
  useEffect(() => {
    if (hydrated && !canSpin && due) revalidator.revalidate();
  }, [hydrated, canSpin, due]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <section aria-labelledby="spin-title" className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
      <h2 id="spin-title" className="text-xl font-bold">
        Daily Spin Wheel
      </h2>
      <div className="relative mx-auto my-4 h-32 w-32" aria-hidden="true">
        {/* The pointer: the prize under it when the wheel stops is the one won. */}
        <span
          data-testid="wheel-pointer"
          className="absolute -top-3 left-1/2 z-10 h-0 w-0 -translate-x-1/2 border-x-[10px] border-t-[16px] border-x-transparent border-t-red-600 dark:border-t-red-400"
        />
        <div
          className={`grid h-32 w-32 grid-cols-2 overflow-hidden rounded-full border-4 border-brand-600 text-center text-sm font-bold ${spinning || pending ? "animate-spin motion-reduce:animate-none" : ""}`}
        >
          {WHEEL_PRIZES.map((prize, i) => (
            <span key={prize} className={`flex items-center justify-center ${i % 3 === 0 ? "bg-amber-200 text-amber-950" : "bg-brand-50 text-brand-700"}`}>
              {prize}
            </span>
          ))}
        </div>
      </div>
      <p className="sr-only" aria-live="polite">
        {state === "spinning" ? "The wheel is spinning" : ""}
      </p>
      {/* One answer with or without JavaScript (ADR 040): back to this page with the spec's toast. */}
      <spin.Form
        ref={form}
        method="post"
        action="/daily-spin"
        preventScrollReset
        onSubmit={(event) => {
          event.preventDefault();
          if (state !== "ready") return;
          setSpinning(true);
          timer.current = setTimeout(() => {
            setSpinning(false);
            spin.submit(form.current, { method: "post", action: "/daily-spin", preventScrollReset: true });
          }, SPIN_REQUEST_DELAY_MS);
        }}
      >
        <button
          type="submit"
          disabled={state !== "ready"}
          className="w-full rounded-md bg-brand-700 px-4 py-2 font-bold text-white disabled:opacity-60"
          data-testid="spin-button"
        >
          {wheelLabel(state, secondsToNext)}
        </button>
      </spin.Form>
      {state === "waiting" && !hydrated ? <p className="mt-2 text-xs">Next spin at {utcMinute(nextSpinTime)}</p> : null}
    </section>
  );
}

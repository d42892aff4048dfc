import { useFetcher, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useHoldToasts } from "./toaster";
import { useHydrated } from "./use-hydrated";
import { formatClock } from "~/shared/raffle-display";
import { utcMinute } from "~/shared/dates";
import { restAngle, rotationOf, stopAngle, turnTo } from "~/shared/spin-wheel";

/** What the home page's loader says of the wheel; the server picks the reward. */
export type WheelData = { canSpin: boolean; nextSpinTime: string; lastReward: number | null; prizes: number[] };
/** The wheel spins this long before the request is sent (spec section 4). */
export const SPIN_REQUEST_DELAY_MS = 3000;
/** The wheel slows down to its stop this long once the reward is known (an event: STYLE.md allows it). */
export const WHEEL_STOP_MS = 4000;
/** While it waits for the reward it turns this far, linearly, at one turn per 0.8 s (it stops long before). */
const WAITING_TURNS = 100;

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

/*
 * The wheel's motion: at rest (on the last reward won), turning while the spin is sent, and
 * stopping on the reward. `angle` is where it turns to; at rest it shows the last reward.
 */
type Motion = { phase: "rest" | "turning" | "stopping"; angle: number };

function transitionOf(phase: Motion["phase"]): string | undefined {
  if (phase === "turning") return `transform ${WAITING_TURNS * 0.8}s linear`;
  // Starts at about the turning speed and slows to a stop.
  if (phase === "stopping") return `transform ${WHEEL_STOP_MS}ms cubic-bezier(0.2, 0.4, 0.3, 1)`;
  return undefined;
}

const SEGMENT_FILLS = ["fill-amber-200", "fill-orange-100", "fill-amber-300", "fill-brand-50"];

/** The wheel's face: one equal segment per prize, clockwise from the top, each labelled. */
function WheelFace({ prizes }: { prizes: number[] }) {
  const step = 360 / prizes.length;
  const point = (degrees: number) => {
    const radians = (degrees * Math.PI) / 180;
    return `${100 + 96 * Math.sin(radians)} ${100 - 96 * Math.cos(radians)}`;
  };
  return (
    <svg viewBox="0 0 200 200" className="h-full w-full">
      {prizes.map((prize, i) => (
        <g key={prize} data-prize={prize}>
          <path
            d={`M100 100 L${point(i * step)} A96 96 0 ${step > 180 ? 1 : 0} 1 ${point((i + 1) * step)} Z`}
            className={`${SEGMENT_FILLS[i % SEGMENT_FILLS.length]} stroke-surface`}
            strokeWidth="2"
          />
          <text x="100" y="42" textAnchor="middle" transform={`rotate(${(i + 0.5) * step} 100 100)`} className="fill-night text-[22px] font-black tabular-nums">
            {prize}
          </text>
        </g>
      ))}
      <circle cx="100" cy="100" r="96" fill="none" strokeWidth="6" className="stroke-brand-600" />
      <circle cx="100" cy="100" r="14" className="fill-brand-700 stroke-white" strokeWidth="3" />
    </svg>
  );
}

/**
 * The daily wheel. Without JavaScript the button posts the form and the page comes back with
 * the wheel at rest on the reward won. With it, the wheel turns for 3 s before a fetcher sends
 * the same form; the page's data (status, balance, the reward) and the toast come back with the
 * action's redirect, and the wheel then slows down to a stop on the reward the server chose.
 * With reduced motion it does not turn: it shows the reward.
 */
export function SpinWheel({ canSpin, nextSpinTime, lastReward, prizes, now }: WheelData & { now: number }) {
  const hydrated = useHydrated();
  const spin = useFetcher();
  // Busy until the page's data is loaded again after the spin (the fetcher follows the
  // action's redirect), so SPIN cannot come back before the status says it may.
  const pending = spin.state !== "idle";
  const resting = lastReward === null ? 0 : restAngle(prizes, lastReward);
  const [motion, setMotion] = useState<Motion>({ phase: "rest", angle: resting });
  const form = useRef<HTMLFormElement>(null);
  const disc = useRef<HTMLDivElement>(null);
  const sent = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  // The spin's toast ("You won 25 coins!") waits until the wheel has stopped on the reward.
  const holdToasts = useHoldToasts();
  const moving = motion.phase !== "rest";
  useEffect(() => {
    holdToasts(moving);
    return () => holdToasts(false);
  }, [moving, holdToasts]);

  // The spin's answer and the page's new data are in: stop on the reward (or, if the spin was
  // refused, on the last one) from where the wheel has turned to.
  useEffect(() => {
    if (motion.phase !== "turning" || !sent.current || pending || !disc.current) return;
    sent.current = false;
    const wheel = disc.current;
    const current = rotationOf(getComputedStyle(wheel).transform);
    // With reduced motion it shows the reward at once, without extra turns.
    const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
    const won = !canSpin && lastReward !== null;
    const target = won ? stopAngle(current, prizes, lastReward, reduced ? 0 : 2) : turnTo(current, resting, reduced ? 0 : 1);
    // Held where it is (read back, so that the browser applies it) before the stop starts from there.
    wheel.style.transition = "none";
    wheel.style.transform = `rotate(${current}deg)`;
    wheel.getBoundingClientRect();
    timer.current = setTimeout(() => {
      setMotion({ phase: reduced ? "rest" : "stopping", angle: target });
      if (!reduced) timer.current = setTimeout(() => setMotion({ phase: "rest", angle: target }), WHEEL_STOP_MS);
    });
  }, [motion, pending, canSpin, lastReward, prizes, resting]);

  const secondsToNext = Math.ceil((new Date(nextSpinTime).getTime() - now) / 1000);
  // The button follows the server's word (spec: enabled only when canSpin); the countdown
  // says "Available now!" once it has run out, and the status is asked for again then.
  const state = wheelState({ canSpin, spinning: motion.phase !== "rest", pending });
  const due = secondsToNext <= 0;
  const revalidator = useRevalidator();
  useEffect(() => {
    if (hydrated && !canSpin && due) revalidator.revalidate();
  }, [hydrated, canSpin, due]); // eslint-disable-line react-hooks/exhaustive-deps

  // At rest it shows the last reward, also one won in another tab since.
  const shown = motion.phase === "turning" ? motion.angle + WAITING_TURNS * 360 : motion.phase === "rest" ? turnTo(motion.angle, resting) : motion.angle;
  const result = motion.phase === "rest" && !canSpin && lastReward !== null;
  return (
    <section aria-labelledby="spin-title" className="rounded-xl border border-line bg-surface p-4">
      <h2 id="spin-title" className="text-xl font-bold">
        Daily Spin Wheel
      </h2>
      <div className="relative mx-auto mt-6 mb-3 h-60 w-60 sm:h-64 sm:w-64" aria-hidden="true">
        {/* The pointer: the prize under it when the wheel stops is the one won. */}
        <span
          data-testid="wheel-pointer"
          className="pointer-events-none absolute -top-4 left-1/2 z-10 h-0 w-0 -translate-x-1/2 border-x-[14px] border-t-[24px] border-x-transparent border-t-red-600 drop-shadow dark:border-t-red-400"
        />
        <div
          ref={disc}
          data-testid="wheel-disc"
          data-phase={motion.phase}
          className="h-full w-full rounded-full shadow-lg motion-reduce:transition-none!"
          style={{ transform: `rotate(${shown}deg)`, transition: transitionOf(motion.phase) }}
        >
          <WheelFace prizes={prizes} />
        </div>
      </div>
      {/* Kept in the layout while the wheel turns, so the button below does not move. */}
      <p data-testid="wheel-result" className={`text-center font-bold ${result ? "" : "invisible"}`}>
        {lastReward === null ? "\u00a0" : `Last spin: ${lastReward} coins`}
      </p>
      <p className="sr-only" aria-live="polite">
        {state === "spinning" ? "The wheel is spinning" : ""}
      </p>
      {/* One answer with or without JavaScript: back to this page with the spec's toast. */}
      <spin.Form
        ref={form}
        method="post"
        action="/daily-spin"
        preventScrollReset
        className="mt-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (state !== "ready") return;
          setMotion((m) => ({ phase: "turning", angle: m.angle }));
          timer.current = setTimeout(() => {
            sent.current = true;
            spin.submit(form.current, { method: "post", action: "/daily-spin", preventScrollReset: true });
          }, SPIN_REQUEST_DELAY_MS);
        }}
      >
        <button type="submit" disabled={state !== "ready"} className="btn btn-primary w-full" data-testid="spin-button">
          {wheelLabel(state, secondsToNext)}
        </button>
      </spin.Form>
      {state === "waiting" && !hydrated ? <p className="mt-2 text-xs">Next spin at {utcMinute(nextSpinTime)}</p> : null}
    </section>
  );
}

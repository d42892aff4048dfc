import { useEffect, useRef, useState } from "react";

/** How long the pot takes to count up to its new value. */
export const COUNT_UP_MS = 700;

/**
 * A number that counts up (or down) to `target` when it changes, over COUNT_UP_MS: the pot
 * growing as entries arrive. The first render shows `target` (it matches the server's HTML);
 * with prefers-reduced-motion the new value shows at once.
 */
export function useCountUp(target: number): number {
  const [shown, setShown] = useState(target);
  const shownRef = useRef(target);
  useEffect(() => {
    const from = shownRef.current;
    if (from === target) return;
    const set = (value: number) => {
      shownRef.current = value;
      setShown(value);
    };
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) {
      set(target);
      return;
    }
    const start = performance.now();
    let frame = 0;
    const step = (time: number) => {
      const t = Math.min(1, (time - start) / COUNT_UP_MS);
      // Ease out: fast at first, settling on the value.
      set(t === 1 ? target : Math.round(from + (target - from) * (1 - (1 - t) ** 3)));
      if (t < 1) frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    // Interrupted by a newer value: the next count starts from what is shown.
    return () => cancelAnimationFrame(frame);
  }, [target]);
  return shown;
}

import { useEffect, useState } from "react";

/**
 * The current time, ticking every second once React runs in the browser. It starts
 * at the server's render time, so the first render matches the server's HTML, and
 * corrects for the difference between the browser's clock and the server's.
 */
export function useNow(serverNow: number, intervalMs = 1000): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const skew = serverNow - Date.now();
    const tick = () => setNow(Date.now() + skew);
    tick();
    const timer = setInterval(tick, intervalMs);
    return () => clearInterval(timer);
  }, [serverNow, intervalMs]);
  return now;
}

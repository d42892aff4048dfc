import { useEffect, useRef, useState } from "react";
import { BIG_WIN_COINS } from "~/services/raffle-display";
import type { Winner } from "./home-panels";

/** The banner shows for 5 s (or until closed) with 20 confetti pieces, for real wins of $1,000 or more. */
export const BIG_WIN_MS = 5000;
export const CONFETTI_PIECES = 20;

export function BigWinBanner({ winners }: { winners: Winner[] }) {
  const seen = useRef<Set<string> | null>(null);
  const [shown, setShown] = useState<Winner | null>(null);

  useEffect(() => {
    // Wins already on the page when it loaded are not news; later ones are.
    if (seen.current === null) {
      seen.current = new Set(winners.map((w) => w.raffleId));
      return;
    }
    const fresh = winners.find((w) => !seen.current!.has(w.raffleId) && w.amountCoins >= BIG_WIN_COINS);
    for (const w of winners) seen.current.add(w.raffleId);
    if (fresh) setShown(fresh);
  }, [winners]);

  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(() => setShown(null), BIG_WIN_MS);
    return () => clearTimeout(timer);
  }, [shown]);

  if (!shown) return null;
  return (
    <div role="status" className="fixed inset-x-0 top-4 z-50 mx-auto w-fit max-w-[90vw] overflow-hidden rounded-xl bg-amber-300 px-6 py-4 text-center text-amber-950 shadow-2xl">
      <div aria-hidden="true" className="pointer-events-none absolute inset-0">
        {Array.from({ length: CONFETTI_PIECES }, (_, i) => (
          <span key={i} data-testid="confetti" className="absolute h-2 w-1 animate-bounce bg-brand-700" style={{ left: `${(i * 5) % 100}%`, top: `${(i * 37) % 100}%` }} />
        ))}
      </div>
      <p className="relative text-lg font-black">BIG WIN! {shown.username} won {shown.amount}!</p>
      <button type="button" onClick={() => setShown(null)} className="relative mt-1 text-sm underline" aria-label="Close">
        Close
      </button>
    </div>
  );
}

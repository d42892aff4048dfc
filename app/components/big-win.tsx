import { useEffect, useRef, useState } from "react";
import { BIG_WIN_COINS } from "~/shared/raffle-display";
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
    // Only real wins (PRODUCT.md, Honesty): a demo crowd player's win is no one's money.
    const fresh = winners.find((w) => !seen.current!.has(w.raffleId) && w.amountCoins >= BIG_WIN_COINS && !w.isDemo);
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
    <div
      role="status"
      className="fixed inset-x-0 top-4 z-50 mx-auto w-fit max-w-[90vw] overflow-hidden rounded-xl bg-gold px-6 py-4 text-center text-on-gold shadow-2xl"
    >
      <div aria-hidden="true" className="pointer-events-none absolute inset-0">
        {Array.from({ length: CONFETTI_PIECES }, (_, i) => (
          <span
            key={i}
            data-testid="confetti"
            className="absolute h-2 w-1 animate-bounce bg-accent"
            style={{ left: `${(i * 5) % 100}%`, top: `${(i * 37) % 100}%` }}
          />
        ))}
      </div>
      <p className="relative text-lg font-black">
        BIG WIN! {shown.username} won {shown.amount}!
      </p>
      <button type="button" onClick={() => setShown(null)} className="relative mt-1 text-sm underline" aria-label="Close">
        Close
      </button>
    </div>
  );
}

/**
 * The player's own win: the big-win celebration, with the spec's "Congratulations!
 * You won {n} coins!", for BIG_WIN_MS or until closed; 20 confetti pieces that fall only
 * when motion is welcome (prefers-reduced-motion keeps them still).
 */
export function WinCelebration({
  win,
  onClose,
}: {
  win: { title: string; description?: string };
  /** Stable (useCallback), or the timer restarts. */ onClose: () => void;
}) {
  useEffect(() => {
    const timer = setTimeout(onClose, BIG_WIN_MS);
    return () => clearTimeout(timer);
  }, [onClose]);
  return (
    <div className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center p-4">
      <div
        role="status"
        className="pointer-events-auto relative w-full max-w-sm overflow-hidden rounded-2xl bg-linear-to-br from-amber-200 to-amber-400 px-6 py-8 text-center text-amber-950 shadow-2xl ring-4 ring-amber-500 motion-safe:animate-reveal"
        data-testid="win-celebration"
      >
        <div aria-hidden="true" className="pointer-events-none absolute inset-0">
          {Array.from({ length: CONFETTI_PIECES }, (_, i) => (
            <span
              key={i}
              data-testid="confetti"
              className={`absolute h-3 w-1.5 rounded-sm motion-safe:animate-confetti ${["bg-brand-600", "bg-emerald-600", "bg-sky-600", "bg-fuchsia-600"][i % 4]}`}
              style={{ left: `${(i * 5 + 2) % 100}%`, top: `${(i * 37) % 90}%`, animationDelay: `${(i % 7) * 0.25}s` }}
            />
          ))}
        </div>
        <span aria-hidden="true" className="ic ic-trophy ic-lg relative flex justify-center" />
        <p className="relative mt-2 text-2xl font-black">{win.title}</p>
        {win.description ? <p className="relative mt-2 text-sm font-semibold">{win.description}</p> : null}
        <button type="button" onClick={onClose} className="relative mt-4 min-h-11 rounded-lg bg-amber-950 px-5 py-2 font-bold text-amber-50">
          Close
        </button>
      </div>
    </div>
  );
}

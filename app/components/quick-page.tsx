import { Zap } from "lucide-react";
import { usePaused } from "./play-session";
import { RaffleCard, type RaffleCardData } from "./raffle-card";
import { useNow } from "./use-now";
import { stillShown } from "~/shared/raffle-display";
import { DemoMark } from "./demo-mark";

/** The quick page's data is read again this often when its live stream is down (PlayerShell). */
export const QUICK_POLL_MS = 5_000;

type QuickData = {
  raffles: RaffleCardData[];
  winners: { raffleId: string; username: string; isDemo?: boolean; amount: string; timeAgo: string }[];
};

/** Amount chips: one per distinct entry price, with how many rounds run at it. */
export function priceChips(raffles: { entryPrice: string }[]): { price: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const r of raffles) counts.set(r.entryPrice, (counts.get(r.entryPrice) ?? 0) + 1);
  return [...counts].map(([price, count]) => ({ price, count }));
}

export function QuickPage({ data, balance, serverNow }: { data: QuickData; balance: number; serverNow: number }) {
  const now = useNow(serverNow);
  const paused = usePaused();
  // A round drawn moments ago stays beside the next one, with its winner, for a few seconds.
  const shown = data.raffles.filter((r) => stillShown(r, now));
  const chips = priceChips(shown.filter((r) => r.drawnAt === undefined));
  const prices = [...new Set(shown.map((r) => r.entryPrice))];
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-6">
      <h1 className="text-3xl font-black">Quick Raffles</h1>
      <section aria-label="Recent quick winners" className="overflow-hidden rounded-lg bg-slate-900 px-4 py-2 text-sm text-white">
        {data.winners.length === 0 ? (
          <p>No recent winners yet</p>
        ) : (
          // Scrollable, so it must be reachable by keyboard.
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
          <ul className="flex gap-6 overflow-x-auto whitespace-nowrap" tabIndex={0} aria-label="Recent quick winners">
            {data.winners.map((w) => (
              <li key={w.raffleId}>
                <Zap aria-hidden="true" className="inline size-4 align-[-2px] text-gold" /> {w.username}
                <DemoMark isDemo={w.isDemo} /> won {w.amount} · {w.timeAgo}
              </li>
            ))}
          </ul>
        )}
      </section>
      <nav aria-label="Entry prices" className="flex flex-wrap gap-2">
        {chips.map((chip) => (
          <a
            key={chip.price}
            href={`#price-${chip.price}`}
            className="rounded-full border border-slate-300 px-3 py-1 text-sm font-semibold dark:border-slate-700"
          >
            ${chip.price} <span className="text-slate-600 dark:text-slate-400">({chip.count})</span>
          </a>
        ))}
      </nav>
      {prices.length === 0 ? <p>The next rounds are opening. They run back to back every 30 seconds.</p> : null}
      {/* One column per entry price on wide screens, so that the rounds fill the width. */}
      <div className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
        {prices.map((price) => (
          <section key={price} id={`price-${price}`} aria-label={`$${price} rounds`} className="flex flex-col gap-3">
            <h2 className="text-xl font-bold">${price} rounds</h2>
            {shown
              .filter((r) => r.entryPrice === price)
              .map((raffle) => (
                <RaffleCard key={raffle.id} raffle={raffle} kind="quick" balance={balance} now={now} />
              ))}
          </section>
        ))}
      </div>
      <section aria-labelledby="rules-title" className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
        <h2 id="rules-title" className="text-lg font-bold">
          How quick raffles work
        </h2>
        <ul className="mt-2 list-disc pl-5 text-sm">
          <li>Every round lasts 30 seconds; a new one starts as soon as one ends.</li>
          <li>Entries close in the last second. The winner takes half the pot (more with VIP).</li>
          <li>With fewer than two players the round is cancelled and every ticket refunded.</li>
          <li>Every draw can be checked on its fair-draw page.</li>
        </ul>
      </section>
      <nav aria-label="More" className="flex flex-wrap gap-4 text-sm">
        <a href="/" className="underline">
          All raffles
        </a>
        {paused ? null : (
          <a href="/checkout?package=package_2" className="underline">
            Buy coins
          </a>
        )}
        <a href="/withdraw" className="underline">
          Withdraw
        </a>
      </nav>
    </main>
  );
}

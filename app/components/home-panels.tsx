import { COIN_PACKAGES } from "~/shared/coin-packages";
import { coinsToDecimal } from "~/shared/money";
import { counted, leaderboardBadge, WINNER_ICON_GLYPH, winnerIcon } from "~/shared/raffle-display";
import { DemoMark } from "./demo-mark";

const panel = "rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900";

export function StatsTiles({ stats }: { stats: { totalPlayers: number; totalPots: string; winnersToday: number } }) {
  const tiles = [
    { label: "Active Players", value: stats.totalPlayers.toLocaleString("en-US") },
    { label: "Total Pots Live", value: `$${stats.totalPots}` },
    { label: "Winners Today", value: stats.winnersToday.toLocaleString("en-US") },
  ];
  return (
    <dl className="grid grid-cols-3 gap-2 sm:gap-4">
      {tiles.map((tile) => (
        <div key={tile.label} className={`${panel} text-center`}>
          <dt className="text-xs text-slate-600 sm:text-sm dark:text-slate-400">{tile.label}</dt>
          <dd className="text-lg font-black sm:text-2xl">{tile.value}</dd>
        </div>
      ))}
    </dl>
  );
}

export type Winner = { raffleId: string; username: string; isDemo?: boolean; amount: string; amountCoins: number; timeAgo: string; entryAmount: string };

export function RecentWinners({ winners }: { winners: Winner[] }) {
  return (
    <section id="winners" aria-labelledby="winners-title" className={panel}>
      <h2 id="winners-title" className="text-xl font-bold">
        Recent Winners
      </h2>
      {winners.length === 0 ? (
        <p className="mt-3 text-slate-600 dark:text-slate-400">No recent winners yet</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200 dark:divide-slate-800">
          {winners.map((w) => {
            const icon = winnerIcon(w.amountCoins);
            return (
              <li key={w.raffleId} className="flex items-center justify-between gap-2 py-2" data-testid="recent-winner">
                <span>
                  <span role="img" aria-label={icon}>
                    {WINNER_ICON_GLYPH[icon]}
                  </span>{" "}
                  <strong>{w.username}</strong>
                  <DemoMark isDemo={w.isDemo} />
                  <span className="block text-xs text-slate-600 dark:text-slate-400">
                    {w.timeAgo} · {w.entryAmount} entry ·{" "}
                    <a className="underline" href={`/fair/${w.raffleId}`}>
                      verify
                    </a>
                  </span>
                </span>
                <span className="font-bold text-emerald-700 dark:text-emerald-400">{w.amount}</span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export function Leaderboard({ entries }: { entries: { username: string; isDemo?: boolean; totalWins: number; totalWinnings: string }[] }) {
  return (
    <section aria-labelledby="leaderboard-title" className={panel}>
      <h2 id="leaderboard-title" className="text-xl font-bold">
        Top Players This Week
      </h2>
      {entries.length === 0 ? (
        <p className="mt-3 text-slate-600 dark:text-slate-400">No players on leaderboard yet</p>
      ) : (
        <ol className="mt-3 divide-y divide-slate-200 dark:divide-slate-800">
          {entries.map((e, i) => (
            <li key={`${e.username}-${i}`} className="flex items-center justify-between gap-2 py-2">
              <span>
                <span className="mr-2 inline-block w-10 rounded bg-slate-200 text-center text-xs font-bold dark:bg-slate-700">{leaderboardBadge(i + 1)}</span>
                {e.username}
                <DemoMark isDemo={e.isDemo} />
                <span className="ml-2 text-xs text-slate-600 dark:text-slate-400">{counted(e.totalWins, "win", "wins")}</span>
              </span>
              <span className="font-bold">{e.totalWinnings}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export function CoinStore() {
  return (
    <section id="coin-store" aria-labelledby="store-title" className={panel}>
      <h2 id="store-title" className="text-xl font-bold">
        Coin Store
      </h2>
      <ul className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-4">
        {COIN_PACKAGES.map((p) => (
          <li key={p.id} className="flex flex-col items-center gap-2 rounded-lg border border-slate-200 p-3 text-center dark:border-slate-700">
            {"badge" in p ? <span className="rounded bg-amber-300 px-2 text-xs font-bold text-amber-950">{p.badge}</span> : null}
            <span className="text-2xl font-black">{p.coins.toLocaleString("en-US")}</span>
            <span className="text-sm">coins</span>
            <span className="font-semibold">${coinsToDecimal(BigInt(p.priceCents))}</span>
            <a href={`/checkout?package=${p.id}`} className="w-full rounded-md bg-brand-700 px-3 py-1 font-bold text-white">
              Buy Now
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

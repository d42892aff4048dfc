import { COIN_PACKAGES } from "~/shared/coin-packages";
import { coinsToDecimal } from "~/shared/money";
import { Crown, Star, Zap } from "lucide-react";
import { counted, leaderboardBadge, winnerIcon } from "~/shared/raffle-display";
import { DemoMark } from "./demo-mark";

const WINNER_ICONS = { crown: Crown, star: Star, bolt: Zap } as const;

const panel = "rounded-xl border border-line bg-surface p-4";

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
          <dt className="text-xs text-ink-muted sm:text-sm">{tile.label}</dt>
          <dd className="font-display text-lg font-bold tabular-nums sm:text-2xl">{tile.value}</dd>
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
        <p className="mt-3 text-ink-muted">No recent winners yet</p>
      ) : (
        <ul className="mt-3 divide-y divide-line">
          {winners.map((w) => {
            const Icon = WINNER_ICONS[winnerIcon(w.amountCoins)];
            return (
              <li key={w.raffleId} className="flex items-center justify-between gap-2 py-2" data-testid="recent-winner">
                <span>
                  <Icon aria-hidden="true" className="mr-1 inline size-4 align-[-2px] text-accent-ink" />
                  <strong>{w.username}</strong>
                  <DemoMark isDemo={w.isDemo} />
                  <span className="block text-xs text-ink-muted">
                    {w.timeAgo} · {w.entryAmount} entry ·{" "}
                    <a className="underline" href={`/fair/${w.raffleId}`}>
                      verify
                    </a>
                  </span>
                </span>
                <span className="font-bold text-win">{w.amount}</span>
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
        <p className="mt-3 text-ink-muted">No players on leaderboard yet</p>
      ) : (
        <ol className="mt-3 divide-y divide-line">
          {entries.map((e, i) => (
            <li key={`${e.username}-${i}`} className="flex items-center justify-between gap-2 py-2">
              <span>
                <span className="mr-2 inline-block w-10 rounded bg-sunken text-center text-xs font-bold">{leaderboardBadge(i + 1)}</span>
                {e.username}
                <DemoMark isDemo={e.isDemo} />
                <span className="ml-2 text-xs text-ink-muted">{counted(e.totalWins, "win", "wins")}</span>
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
          <li key={p.id} className="flex flex-col items-center gap-2 rounded-lg border border-line p-3 text-center">
            {"badge" in p ? <span className="rounded bg-gold px-2 text-xs font-bold text-on-gold">{p.badge}</span> : null}
            <span className="font-display text-2xl font-bold">{p.coins.toLocaleString("en-US")}</span>
            <span className="text-sm">coins</span>
            <span className="font-semibold">${coinsToDecimal(BigInt(p.priceCents))}</span>
            <a href={`/checkout?package=${p.id}`} className="w-full rounded-md bg-accent px-3 py-1 font-bold text-on-accent">
              Buy Now
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

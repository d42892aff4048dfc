import { COIN_PACKAGES } from "~/shared/coin-packages";
import { coinsToDecimal } from "~/shared/money";
import { counted, leaderboardBadge, winnerIcon } from "~/shared/raffle-display";
import { ButtonLink } from "./button";
import { DemoMark } from "./demo-mark";

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
            return (
              <li key={w.raffleId} className="flex items-center justify-between gap-2 py-2" data-testid="recent-winner">
                <span>
                  {/* The prize's icon, drawn by CSS (.ic-<name>): no script on the home page. */}
                  <span aria-hidden="true" className={`ic ic-${winnerIcon(w.amountCoins)} mr-1 inline-flex align-[-3px] text-accent-ink`} />
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
        {COIN_PACKAGES.map((p) => {
          // The cents paid become withdrawable cash, the coins above them bonus (paidMix, app/shared/coin-mix.ts).
          const cash = Math.min(p.priceCents, p.coins);
          const bonus = p.coins - cash;
          return (
            // Every card the same height, its price and button on one line with the others'.
            <li key={p.id} className="flex flex-col items-center gap-1 rounded-xl border border-line p-3 text-center" data-testid="coin-package">
              <span className={`min-h-5 rounded px-2 text-xs font-bold ${"badge" in p ? "bg-gold text-on-gold" : ""}`}>{"badge" in p ? p.badge : ""}</span>
              <span className="font-display text-2xl font-bold tabular-nums">{p.coins.toLocaleString("en-US")}</span>
              <span className="text-sm">coins</span>
              <span className="text-xs text-ink-muted" data-testid="coin-mix">
                {`${cash.toLocaleString("en-US")} cash to withdraw`}
                <br />
                {`${bonus.toLocaleString("en-US")} bonus to play`}
              </span>
              <span className="mt-auto pt-2 font-display text-lg font-semibold">${coinsToDecimal(BigInt(p.priceCents))}</span>
              <ButtonLink href={`/checkout?package=${p.id}`} className="w-full px-3">
                Buy Now
              </ButtonLink>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

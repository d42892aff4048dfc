import { REGULAR_TIERS, stillShown, tierClass, TIER_LABELS } from "~/shared/raffle-display";
import { formatDollars, parseDollars } from "~/shared/money";
import type { ToldRound } from "~/shared/live-reload";
import { BigWinBanner } from "./big-win";
import { ButtonLink } from "./button";
import { Carousel } from "./carousel";
import { usePaused } from "./play-session";
import { CoinStore, Leaderboard, RecentWinners, StatsTiles, type Winner } from "./home-panels";
import { RaffleCard, type RaffleCardData } from "./raffle-card";
import { SpinWheel, type WheelData } from "./spin-wheel";
import { useNow } from "./use-now";
import { toldWinner, useToldBoard, useToldDraws, withToldDraws, withToldWinners } from "./live-told";

/** The home page's data is read again this often when its live stream is down (PlayerShell). */
export const HOME_POLL_MS = 30_000;

export type HomeData = {
  featured: (RaffleCardData & { tier: string })[];
  raffles: RaffleCardData[];
  stats: { totalPlayers: number; totalPots: string; winnersToday: number };
  winners: Winner[];
  leaderboard: { username: string; totalWins: number; totalWinnings: string }[];
  spin: WheelData;
  /** Rounds opened ahead of their start, and when the server read it (its clock): rounds that start after it are added (ADR 094). */
  upcoming: ToldRound[];
  readAt: number;
};

/**
 * The hero's one main action: the raffles for a player who can afford an entry, the coin store
 * for one who cannot; everything else is a quiet link beside it.
 */
function HeroActions({ canPlay }: { canPlay: boolean }) {
  const main = canPlay ? { href: "#featured", label: "View Raffles" } : { href: "#coin-store", label: "Buy Coins" };
  const links = [
    canPlay ? { href: "#coin-store", label: "Buy Coins" } : { href: "#featured", label: "View Raffles" },
    { href: "/quick", label: "Quick Raffles" },
    { href: "/vip", label: "Join VIP" },
    { href: "/withdraw", label: "Withdraw" },
  ];
  return (
    <div className="mt-4 flex flex-wrap items-center gap-x-1 gap-y-1" data-testid="hero-actions">
      <ButtonLink href={main.href} className="mr-2 w-full text-lg sm:w-auto">
        {main.label}
      </ButtonLink>
      {links.map((link) => (
        <ButtonLink key={link.href} variant="link" href={link.href}>
          {link.label}
        </ButtonLink>
      ))}
    </div>
  );
}

export function HomePage({ data, balance, serverNow }: { data: HomeData; balance: number; serverNow: number }) {
  const now = useNow(serverNow);
  // A raffle drawn moments ago stays beside the next round, with its winner, for a few seconds.
  const board = useToldBoard(data.raffles, data.readAt, data.upcoming, now);
  const raffles = board.filter((r) => stillShown(r, now));
  const draws = useToldDraws();
  const featured = withToldDraws(data.featured, draws).filter((r) => stillShown(r, now));
  const winners = withToldWinners(data.winners, data.readAt, draws, (draw) => {
    const raffle = board.find((r) => r.id === draw.raffleId);
    return raffle && { ...toldWinner(draw, now), entryAmount: formatDollars(parseDollars(raffle.entryPrice) ?? 0n) };
  });
  // While play is stopped (a break, an exclusion, a place no longer served) no page invites
  // play (PRODUCT.md): no cards, pots, countdowns, winners or links to raffles; the account stays.
  if (usePaused() !== null) return <PausedHome />;
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-6">
      <BigWinBanner winners={winners} />
      <section aria-labelledby="hero-title" className="hero">
        <h1 id="hero-title" className="text-3xl font-bold sm:text-4xl">
          Win half the pot
        </h1>
        <p className="mt-1 text-on-night-muted">Raffles from $0.05, drawn provably fair.</p>
        <HeroActions canPlay={data.raffles.some((r) => BigInt(balance) >= (parseDollars(r.entryPrice) ?? 0n))} />
      </section>
      <StatsTiles stats={data.stats} />
      <section id="featured" aria-labelledby="featured-title">
        <h2 id="featured-title" className="text-2xl font-bold">
          Biggest Pots
        </h2>
        {featured.length === 0 ? (
          <p className="mt-2">No raffles are open right now. New ones open every few minutes.</p>
        ) : (
          <Carousel label="Biggest pots">
            {featured.map((raffle) => (
              <div key={raffle.id} className="w-64 shrink-0 snap-start">
                <RaffleCard raffle={raffle} kind="regular" balance={balance} now={now} />
              </div>
            ))}
          </Carousel>
        )}
      </section>
      <section aria-labelledby="all-title" className="flex flex-col gap-6">
        <h2 id="all-title" className="text-2xl font-bold">
          All Raffles
        </h2>
        {REGULAR_TIERS.map((tier) => {
          const inTier = raffles.filter((r) => r.tier === tier);
          if (inTier.length === 0) return null;
          return (
            <section key={tier} aria-label={TIER_LABELS[tier]}>
              <h3 className={`tier-h ${tierClass(tier)}`}>{TIER_LABELS[tier]}</h3>
              <div className="mt-2 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {inTier.map((raffle) => (
                  <RaffleCard key={raffle.id} raffle={raffle} kind="regular" balance={balance} now={now} />
                ))}
              </div>
            </section>
          );
        })}
      </section>
      <div className="grid gap-6 lg:grid-cols-3">
        <SpinWheel {...data.spin} now={now} />
        <RecentWinners winners={winners} />
        <Leaderboard entries={data.leaderboard} />
      </div>
      <CoinStore />
    </main>
  );
}

/** Home, and /quick, while play is stopped: the balance, history, withdrawal and help, and nothing to play. */
export function PausedHome() {
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-6">
      <section aria-labelledby="hero-title" className="hero">
        <h1 id="hero-title" className="text-3xl font-bold sm:text-4xl">
          Your account
        </h1>
        <p className="mt-1 text-on-night-muted">Your balance, your history and withdrawals stay open to you.</p>
        <div className="mt-4 flex flex-wrap items-center gap-x-2 gap-y-1">
          <ButtonLink href="/account" className="mr-2">
            Balance
          </ButtonLink>
          <ButtonLink variant="link" href="/history">
            History
          </ButtonLink>
          <ButtonLink variant="link" href="/withdraw">
            Withdraw
          </ButtonLink>
          <ButtonLink variant="link" href="/responsible-play">
            Help
          </ButtonLink>
        </div>
      </section>
    </main>
  );
}

import { Trophy, Zap } from "lucide-react";
import { usePaused } from "./play-session";
import { RaffleCard, WinnerWords, type RaffleCardData } from "./raffle-card";
import { useNow } from "./use-now";
import { toldWinner, useToldBoard, useToldDraws, withToldWinners } from "./live-told";
import { cardPhase, stillShown } from "~/shared/raffle-display";
import type { ToldRound } from "~/shared/live-reload";
import { DemoMark } from "./demo-mark";

/** The quick page's data is read again this often when its live stream is down (PlayerShell). */
export const QUICK_POLL_MS = 5_000;

type QuickData = {
  raffles: RaffleCardData[];
  winners: { raffleId: string; username: string; isDemo?: boolean; amount: string; timeAgo: string }[];
  /** Rounds opened ahead of their start, and when the server read it (its clock): rounds that start after it are added (ADR 094). */
  upcoming: ToldRound[];
  readAt: number;
};

/** Amount chips: one per distinct entry price, with how many rounds run at it. */
export function priceChips(raffles: { entryPrice: string }[]): { price: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const r of raffles) counts.set(r.entryPrice, (counts.get(r.entryPrice) ?? 0) + 1);
  return [...counts].map(([price, count]) => ({ price, count }));
}

/**
 * The board: one slot per entry price, holding its live round (the latest to end, so the one
 * still open once the last has closed), or, until the next opens, the round just drawn. Other
 * rounds ended moments ago (drawing, or drawn) go to a strip of their own, newest first, so
 * that they never push the live rounds down (issue 33), nor vanish while the next round,
 * told live, takes their slot before their draw is read (ADR 094).
 */
export function quickBoard(raffles: RaffleCardData[], now: number): { slots: RaffleCardData[]; justDrawn: RaffleCardData[] } {
  const shown = raffles.filter((r) => stillShown(r, now));
  const latest = (rounds: RaffleCardData[], key: (r: RaffleCardData) => string) =>
    rounds.reduce<RaffleCardData | undefined>((best, r) => (best === undefined || key(r) > key(best) ? r : best), undefined);
  const slots: RaffleCardData[] = [];
  for (const price of new Set(shown.map((r) => r.entryPrice))) {
    const atPrice = shown.filter((r) => r.entryPrice === price);
    const slot =
      latest(
        atPrice.filter((r) => r.drawnAt === undefined),
        (r) => r.endTime,
      ) ?? latest(atPrice, (r) => r.drawnAt ?? "");
    if (slot) slots.push(slot);
  }
  const ended = (r: RaffleCardData) => r.drawnAt ?? (Date.parse(r.endTime) <= now ? r.endTime : undefined);
  const justDrawn = shown.filter((r) => ended(r) !== undefined && !slots.includes(r)).sort((a, b) => ended(b)!.localeCompare(ended(a)!));
  return { slots, justDrawn };
}

/** A round drawn moments ago, in the strip: its price, then DRAWING, then what came of it. */
function DrawnRound({ raffle, now }: { raffle: RaffleCardData; now: number }) {
  const phase = cardPhase(raffle, "quick", now);
  return (
    <li data-raffle-id={raffle.id} data-testid="drawn-round" data-phase={phase} className="shrink-0">
      <a href={`/fair/${raffle.id}`} className="flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 hover:bg-white/20">
        <span className="font-bold">{`$${raffle.entryPrice}`}</span>
        {phase === "drawing" ? (
          <span data-testid="countdown">Drawing Winner...</span>
        ) : phase === "cancelled" ? (
          <span>
            <span data-testid="countdown">Cancelled</span> · <span data-testid="card-result">Every ticket was refunded</span>
          </span>
        ) : (
          <span data-testid="card-result" className={raffle.youWon ? "font-bold text-emerald-300" : ""}>
            <Trophy aria-hidden="true" className="mr-1 inline size-4 align-[-2px]" />
            <WinnerWords raffle={raffle} />
          </span>
        )}
      </a>
    </li>
  );
}

export function QuickPage({ data, balance, serverNow }: { data: QuickData; balance: number; serverNow: number }) {
  const now = useNow(serverNow);
  const paused = usePaused();
  const { slots, justDrawn } = quickBoard(useToldBoard(data.raffles, data.readAt, data.upcoming, now), now);
  const winners = withToldWinners(data.winners, data.readAt, useToldDraws(), (draw) => toldWinner(draw, now));
  const chips = priceChips(slots.filter((r) => r.drawnAt === undefined));
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-4 sm:py-6">
      <h1 className="text-2xl font-black sm:text-3xl">Quick Raffles</h1>
      {/* One line of fixed height, whatever it holds: the live rounds below never move. */}
      <section aria-label="Just drawn and recent winners" className="h-10 shrink-0 rounded-lg bg-night text-sm text-on-night">
        {/* Scrollable, so it must be reachable by keyboard. */}
        {/* eslint-disable jsx-a11y/no-noninteractive-tabindex */}
        <div
          className="flex h-10 items-center gap-4 overflow-x-auto rounded-lg px-3 whitespace-nowrap [scrollbar-width:none] focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-white"
          tabIndex={0}
        >
          {/* eslint-enable jsx-a11y/no-noninteractive-tabindex */}
          {justDrawn.length > 0 ? (
            <ul aria-label="Just drawn" className="flex gap-2">
              {justDrawn.map((raffle) => (
                <DrawnRound key={raffle.id} raffle={raffle} now={now} />
              ))}
            </ul>
          ) : null}
          {winners.length === 0 ? (
            <p className="py-1">No recent winners yet</p>
          ) : (
            <ul className="flex gap-6 py-1" aria-label="Recent quick winners">
              {winners.map((w) => (
                <li key={w.raffleId}>
                  <Zap aria-hidden="true" className="inline size-4 align-[-2px] text-gold" /> {w.username}
                  <DemoMark isDemo={w.isDemo} /> won {w.amount} · {w.timeAgo}
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>
      {/* One row that scrolls sideways on a phone, rather than wrapping onto a second. */}
      <nav aria-label="Entry prices" className="-mx-4 flex shrink-0 gap-2 overflow-x-auto px-4 [scrollbar-width:none]">
        {chips.map((chip) => (
          <a
            key={chip.price}
            href={`#price-${chip.price}`}
            className="shrink-0 rounded-full border border-line-strong px-3 py-1 text-sm font-semibold whitespace-nowrap"
          >
            ${chip.price} <span className="text-ink-muted">({chip.count})</span>
          </a>
        ))}
      </nav>
      {slots.length === 0 ? <p>The next rounds are opening. They run back to back every 30 seconds.</p> : null}
      {/* One slot per entry price, three to a row on wide screens, so that the rounds fill the width. */}
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {slots.map((raffle) => (
          <section key={raffle.entryPrice} id={`price-${raffle.entryPrice}`} aria-labelledby={`price-${raffle.entryPrice}-title`}>
            <h2 id={`price-${raffle.entryPrice}-title`} className="sr-only">{`$${raffle.entryPrice} rounds`}</h2>
            <RaffleCard key={raffle.id} raffle={raffle} kind="quick" balance={balance} now={now} />
          </section>
        ))}
      </div>
      <section aria-labelledby="rules-title" className="rounded-xl border border-line p-4">
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

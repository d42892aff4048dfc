import { useFetcher, useLocation } from "@remix-run/react";
import { Trophy } from "lucide-react";
import type { RaffleView } from "~/services/raffles/raffle-views.server";
import { usePaused } from "./play-session";
import { useCountUp } from "./use-count-up";
import { useHydrated } from "./use-hydrated";
import { useOptionalUser } from "./use-root-data";
import { coinsToDecimal, parseDollars } from "~/shared/money";
import { cardPhase, elapsedShare, formatCountdown, secondsLeft, ticketsOutlook, tierClass, TIER_LABELS } from "~/shared/raffle-display";
import { DemoMark } from "./demo-mark";

/**
 * The fields of the API's raffle view that a card shows; a raffle drawn moments ago also
 * has when it was drawn and, when completed, its winner.
 */
export type RaffleCardData = Omit<RaffleView, "timeRemaining" | "maxTicketsPerPlayer" | "seedHash"> & {
  drawnAt?: string;
  winner?: string;
  winnerIsDemo?: boolean;
  prize?: string;
  youWon?: boolean;
};

/** The pot, counting up to its new value when entries arrive. */
function Pot({ dollars }: { dollars: string }) {
  const cents = Number(parseDollars(dollars) ?? 0n);
  const shown = useCountUp(cents);
  // Screen readers get the value itself, not every step of the count (the card is `relative`,
  // so this sr-only text stays inside a scrolling row of cards instead of widening the page).
  return (
    <>
      <p className="rc-pot" data-testid="pot" aria-hidden="true">
        {`$${coinsToDecimal(BigInt(shown))}`}
      </p>
      <p className="sr-only">{`$${dollars}`}</p>
    </>
  );
}

/** What a drawn raffle came to: its winner (a reveal), or its refund. */
function Result({ raffle, phase }: { raffle: RaffleCardData; phase: "won" | "cancelled" }) {
  if (phase === "cancelled") {
    return (
      <p className="rounded-lg bg-sunken p-3 text-center text-sm" data-testid="card-result">
        Cancelled: fewer than two players joined. Every ticket was refunded.
      </p>
    );
  }
  return (
    <p
      className={`motion-safe:animate-reveal rounded-lg p-3 text-center font-bold ${raffle.youWon ? "bg-win-strong text-white" : "bg-gold text-on-gold"}`}
      data-testid="card-result"
    >
      <Trophy aria-hidden="true" className="mr-1 inline size-5 align-[-4px]" />
      <WinnerWords raffle={raffle} />
    </p>
  );
}

/** Who won a drawn raffle, in the card's words: "You won $x!" or "{name} [demo] won $x". */
export function WinnerWords({ raffle }: { raffle: Pick<RaffleCardData, "youWon" | "winner" | "winnerIsDemo" | "prize"> }) {
  if (raffle.youWon) return <>{`You won $${raffle.prize}!`}</>;
  return (
    <>
      {raffle.winner}
      <DemoMark isDemo={raffle.winnerIsDemo} />
      {` won $${raffle.prize}`}
    </>
  );
}

/**
 * One raffle: pot, players, countdown, a bar to its end and the entry button; then DRAWING...
 * and its winner, while the next round opens beside it. The button is a form: a plain post
 * without JavaScript, a fetcher with it (no page load); both come back with the toast.
 */
export function RaffleCard({ raffle, kind, balance, now }: { raffle: RaffleCardData; kind: "regular" | "quick"; balance: number; now: number }) {
  const hydrated = useHydrated();
  // During a break, an exclusion or in a place no longer served, no card invites play (PRODUCT.md).
  const paused = usePaused() !== null;
  const location = useLocation();
  const entry = useFetcher();
  const pending = entry.state !== "idle";
  const left = secondsLeft(raffle.endTime, now);
  // A quick round closes in its last second: under 1 s left, not when the countdown shows 0.
  const phase = cardPhase(raffle, kind, now);
  const drawn = phase === "won" || phase === "cancelled";
  const closed = phase === "drawing" || drawn;
  const drawingText = kind === "quick" ? "Drawing Winner..." : "DRAWING...";
  const short = BigInt(balance) < (parseDollars(raffle.entryPrice) ?? 0n);
  // VIP-only raffles are for active members; the server refuses anyone else (enter_raffles).
  const vipActive = useOptionalUser()?.vipActive ?? false;
  const membersOnly = raffle.vipOnly && !vipActive;
  const action = `/${kind === "quick" ? "quick-raffles" : "raffles"}/${raffle.id}/enter`;
  const label =
    phase === "drawing"
      ? drawingText
      : kind === "quick"
        ? short
          ? "Insufficient Coins"
          : `Enter $${raffle.entryPrice}`
        : phase === "ending-soon"
          ? "QUICK ENTER"
          : `Enter $${raffle.entryPrice}`;
  const urgent = !paused && (phase === "urgent" || phase === "ending-soon");
  const tierLabel = kind === "quick" ? raffle.tier.toUpperCase() : (TIER_LABELS[raffle.tier] ?? raffle.tier.toUpperCase());
  const share = drawn || phase === "drawing" ? 1 : elapsedShare(raffle.startTime, raffle.endTime, now);

  return (
    <article
      className={`rc ${tierClass(raffle.tier)}${urgent ? " border-red-500 ring-2 ring-red-500/40" : ""}${raffle.youWon && drawn ? " ring-4 ring-emerald-500" : ""}`}
      aria-label={`${tierLabel} raffle, $${raffle.entryPrice} entry`}
      data-testid="raffle-card"
      data-raffle-id={raffle.id}
      data-phase={phase}
    >
      <div className="rc-head">
        <span className="rc-chip">{tierLabel}</span>
        {raffle.vipOnly ? <span className="rc-chip bg-gold text-on-gold">VIP</span> : null}
        {phase === "ending-soon" && !paused ? (
          <span className="inline-flex items-center gap-1.5 rounded-full bg-red-700 px-2.5 py-0.5 text-xs font-bold text-white">
            {/* The dot pulses, not the words: fading text would dip below a readable contrast. */}
            <span aria-hidden="true" className="size-2 rounded-full bg-white motion-safe:animate-ping" />
            ENDING SOON
          </span>
        ) : null}
      </div>
      <div>
        <p className="rc-label">{drawn ? "Final pot" : "Pot"}</p>
        <Pot dollars={raffle.currentPot} />
      </div>
      <div className="rc-track" aria-hidden="true" data-testid="progress">
        <div className={urgent ? "rc-bar bg-red-600" : "rc-bar"} style={{ width: `${(share * 100).toFixed(1)}%` }} />
      </div>
      <dl className="rc-facts">
        <dt>Entry</dt>
        <dd>{`$${raffle.entryPrice}`}</dd>
        <dt>Players</dt>
        <dd>{raffle.participantCount}</dd>
        <dt>Time left</dt>
        <dd className={urgent ? "text-danger" : undefined} data-testid="countdown">
          {phase === "drawing" ? drawingText : phase === "cancelled" ? "Cancelled" : drawn ? "Drawn" : formatCountdown(left)}
        </dd>
        {kind === "quick" && !drawn ? (
          <>
            <dt>{raffle.couldWinNow ? "You would win now" : "You could win"}</dt>
            <dd data-testid="could-win">{`$${raffle.couldWin}`}</dd>
          </>
        ) : null}
        {raffle.myTickets !== undefined && !drawn ? (
          <>
            <dt>Your tickets</dt>
            <dd data-testid="my-tickets">{`${raffle.myTickets} · ${ticketsOutlook(raffle.myTickets, raffle.ticketCount, raffle.participantCount)}`}</dd>
          </>
        ) : null}
      </dl>
      {raffle.closedEarly && !drawn ? (
        <p className="rc-note" data-testid="closed-early">
          {`Closed early: no more entries; drawn with beacon round ${raffle.closedEarly.beaconRound}`}
        </p>
      ) : null}
      {hydrated || drawn ? null : (
        <p className="rc-note">
          Ends at <time dateTime={raffle.endTime}>{`${new Date(raffle.endTime).toISOString().slice(11, 19)} UTC`}</time>
          {" · "}
          <a href={`${location.pathname}${location.search}`} className="underline">
            Refresh
          </a>
        </p>
      )}
      {drawn ? (
        <div aria-live="polite">
          <Result raffle={raffle} phase={phase} />
        </div>
      ) : paused ? (
        <p className="text-center text-sm text-ink-muted" data-testid="entry-paused">
          Entries are paused for your account.
        </p>
      ) : membersOnly ? (
        <div className="flex flex-col gap-1 text-center text-sm">
          <button
            type="button"
            disabled
            aria-describedby={`vip-only-${raffle.id}`}
            className="w-full rounded-md bg-accent px-4 py-2 font-bold text-on-accent opacity-60"
          >
            VIP members only
          </button>
          <p id={`vip-only-${raffle.id}`} data-testid="vip-only">
            This raffle is for active VIP members.{" "}
            <a className="underline" href="/vip">
              See VIP tiers
            </a>
          </p>
        </div>
      ) : (
        // One answer with or without JavaScript: back to this page with the spec's toast.
        <entry.Form method="post" action={action} preventScrollReset>
          <button
            type="submit"
            disabled={closed || (kind === "quick" && short) || pending}
            className={urgent ? "rc-enter bg-red-700 hover:bg-red-600" : "rc-enter"}
          >
            {pending ? "Entering..." : label}
          </button>
        </entry.Form>
      )}
      <a href={`/fair/${raffle.id}`} className="rc-fair">
        How this draw is checked
      </a>
    </article>
  );
}

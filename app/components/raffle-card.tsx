import { useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { RaffleView } from "~/services/raffles/raffle-views.server";
import { useTellEntry, useToldTickets } from "./entry-answers";
import { useLivePot } from "./live-told";
import { usePaused } from "./play-session";
import { DrawReel, Pot, Result, type DrawnFields } from "./raffle-card-parts";
import { useShowToast } from "./toaster";
import { useHydrated } from "./use-hydrated";
import { useOptionalUser } from "./use-root-data";
import { CARD_ANSWER, isCardEntryAnswer } from "~/shared/card-answer";
import { withLivePot } from "~/shared/live-reload";
import { parseDollars } from "~/shared/money";
import { couldWinView } from "~/shared/prize";
import { winMultiplierTenths, type VipTierName } from "~/shared/vip";
import { cardPhase, elapsedShare, formatCountdown, playersInWords, secondsLeft, tierClass, TIER_LABELS, yourChanceInWords } from "~/shared/raffle-display";

export { WinnerWords } from "./raffle-card-parts";

/**
 * The fields of the API's raffle view that a card shows; a raffle drawn moments ago also
 * has when it was drawn and, when completed, its winner.
 */
export type RaffleCardData = Omit<RaffleView, "timeRemaining" | "maxTicketsPerPlayer" | "seedHash"> & DrawnFields & { drawnAt?: string };

/**
 * One raffle: pot, players, countdown, a bar to its end and the entry button; then DRAWING...
 * and its winner, while the next round opens beside it. The button is a form: a plain post
 * without JavaScript (back with the page and the toast), a fetcher with it, answered with the
 * toast, the player's tickets and coins and no page load (ADR 093). Its pot, players and
 * tickets are the latest the live stream or the player's own entries told of.
 */
export function RaffleCard({ raffle: loaded, kind, balance, now }: { raffle: RaffleCardData; kind: "regular" | "quick"; balance: number; now: number }) {
  const hydrated = useHydrated();
  const user = useOptionalUser();
  const raffle = withLiveOutlook(withLivePot(withToldTickets(loaded, useToldTickets(loaded.id)), useLivePot(loaded.id)), loaded, user);
  // During a break, an exclusion or in a place no longer served, no card invites play (PRODUCT.md).
  const paused = usePaused() !== null;
  const location = useLocation();
  const entry = useFetcher();
  const pending = entry.state !== "idle";
  const tell = useTellEntry();
  const showToast = useShowToast();
  // Each answer is a new object, told once as it comes: the fetcher keeps it after, and the
  // page's later data must not bring back its coins or its toast.
  const told = useRef<unknown>(undefined);
  useEffect(() => {
    if (!isCardEntryAnswer(entry.data) || told.current === entry.data) return;
    told.current = entry.data;
    tell(entry.data);
    showToast(entry.data.toast);
  }, [entry.data, tell, showToast]);
  const left = secondsLeft(raffle.endTime, now);
  // A quick round closes in its last second: under 1 s left, not when the countdown shows 0.
  const phase = cardPhase(raffle, kind, now);
  const drawn = phase === "won" || phase === "cancelled";
  const closed = phase === "drawing" || drawn;
  const drawingText = kind === "quick" ? "Drawing Winner..." : "DRAWING...";
  const short = BigInt(balance) < (parseDollars(raffle.entryPrice) ?? 0n);
  // VIP-only raffles are for active members; the server refuses anyone else (enter_raffles).
  const vipActive = user?.vipActive ?? false;
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
      className={`rc ${tierClass(raffle.tier)}${urgent ? " rc-closing" : ""}${raffle.youWon && drawn ? " ring-4 ring-win" : ""}`}
      aria-label={`${tierLabel} raffle, $${raffle.entryPrice} entry`}
      data-testid="raffle-card"
      data-raffle-id={raffle.id}
      data-phase={phase}
    >
      <div className="rc-head">
        <span className="rc-chip">{tierLabel}</span>
        {raffle.vipOnly ? <span className="rc-chip bg-gold text-on-gold">VIP</span> : null}
        {phase === "ending-soon" && !paused ? <span className="rc-soon">ENDING SOON</span> : null}
      </div>
      <div className="rc-top">
        <div>
          <p className="rc-label">{drawn ? "Final pot" : "Pot"}</p>
          <Pot dollars={raffle.currentPot} />
        </div>
        <p className="rc-entry">
          <span className="rc-label">Entry</span>
          {`$${raffle.entryPrice}`}
        </p>
      </div>
      <div>
        <p className="rc-time">
          {/* The last seconds: the words and the bar's colour change; nothing flashes. */}
          <span className="rc-label">{urgent ? "Closing" : "Time left"}</span>
          <span data-testid="countdown">
            {phase === "drawing" ? drawingText : phase === "cancelled" ? "Cancelled" : drawn ? "Drawn" : formatCountdown(left)}
          </span>
        </p>
        <div className="rc-track" aria-hidden="true" data-testid="progress">
          <div className="rc-bar" style={{ width: `${(share * 100).toFixed(1)}%` }} />
        </div>
      </div>
      <p className="rc-who" data-testid="players">
        {playersInWords(raffle.participantCount)}
      </p>
      {raffle.myTickets !== undefined && !drawn ? (
        <p className={raffle.myTickets > 0 ? "rc-you" : "rc-who"} data-testid="my-tickets">
          {yourChanceInWords(raffle.myTickets, raffle.ticketCount, raffle.participantCount)}
        </p>
      ) : null}
      {kind === "quick" && !drawn ? (
        <dl className="rc-facts">
          <dt>{raffle.couldWinNow ? "You would win now" : "You could win"}</dt>
          <dd data-testid="could-win">{`$${raffle.couldWin}`}</dd>
        </dl>
      ) : null}
      {raffle.closedEarly && !drawn ? (
        <p className="rc-note" data-testid="closed-early">
          {`Closed early: no more entries; drawn with beacon round ${raffle.closedEarly.beaconRound}`}
        </p>
      ) : null}
      {phase === "drawing" ? <DrawReel ticketCount={raffle.ticketCount} /> : null}
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
          <Result raffle={raffle} raffleId={raffle.id} phase={phase} />
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
        // Without JavaScript: back to this page with the spec's toast. Hydrated, the card asks for its answer as data.
        <entry.Form method="post" action={action} preventScrollReset>
          {hydrated ? <input type="hidden" name={CARD_ANSWER.name} value={CARD_ANSWER.value} /> : null}
          <button type="submit" disabled={closed || (kind === "quick" && short) || pending} className="rc-enter">
            {pending ? "Entering..." : label}
          </button>
        </entry.Form>
      )}
      {phase === "won" ? null : (
        <a href={`/fair/${raffle.id}`} className="rc-fair">
          How this draw is checked
        </a>
      )}
    </article>
  );
}

/** The player's tickets as their own entry answered, when more than the loaded count (tickets only grow while it is open). */
function withToldTickets(raffle: RaffleCardData, told: number | undefined): RaffleCardData {
  return raffle.myTickets !== undefined && told !== undefined && told > raffle.myTickets ? { ...raffle, myTickets: told } : raffle;
}

/** What the player could win, worked out again when a live pot or the player's own entry changed the loaded card (as listRaffles does). */
function withLiveOutlook(
  raffle: RaffleCardData,
  loaded: RaffleCardData,
  user: { vipActive: boolean; vipTier: VipTierName } | null | undefined,
): RaffleCardData {
  if (raffle === loaded) return raffle;
  return {
    ...raffle,
    ...couldWinView({
      pot: parseDollars(raffle.currentPot) ?? 0n,
      entryPrice: parseDollars(raffle.entryPrice) ?? 0n,
      myTickets: raffle.myTickets ?? 0,
      participantCount: raffle.participantCount,
      multiplierTenths: winMultiplierTenths(user?.vipActive ? user.vipTier : null),
    }),
  };
}
